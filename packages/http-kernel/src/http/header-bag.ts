export type HeaderValue = string | readonly string[];
export type HeaderInit =
  | HeaderBag
  | Iterable<readonly [string, HeaderValue]>
  | Readonly<Record<string, HeaderValue | number | undefined>>;

/**
 * Case-insensitive, multi-valued headers. Names are stored lower-cased (as HTTP/2 and
 * node:http present them); values keep their order.
 */
export class HeaderBag implements Iterable<[string, string[]]> {
  /** Built on first use: a bag from `fromRawList` that nobody reads never allocates it. */
  #values: Map<string, string[]> | null;
  /** A raw list given to `fromRawList`, not read into `#values` yet. */
  #unread: readonly string[] | null;

  constructor(init?: HeaderInit) {
    this.#values = null;
    this.#unread = null;
    if (init === undefined) return;
    this.#values = new Map();
    if (init instanceof HeaderBag) {
      for (const [name, values] of init.#map()) this.#values.set(name, [...values]);
    } else if (Symbol.iterator in init) {
      for (const [name, value] of init as Iterable<readonly [string, HeaderValue]>) this.append(name, value);
    } else {
      const record = init as Readonly<Record<string, HeaderValue | number | undefined>>;
      for (const name of Object.keys(record)) {
        const value = record[name];
        if (value !== undefined) this.append(name, typeof value === 'number' ? String(value) : value);
      }
    }
  }

  /**
   * Headers from a flat raw list `[name, value, name, value…]` (node's `rawHeaders`), names in any
   * case; HTTP/2 pseudo-headers (`:path`…) are left out. The list is read on first use, not
   * before: many requests are answered without anyone reading their headers. It must not change
   * afterwards (node never changes `rawHeaders`).
   */
  static fromRawList(raw: readonly string[]): HeaderBag {
    const bag = new HeaderBag();
    bag.#unread = raw;
    return bag;
  }

  #map(): Map<string, string[]> {
    if (this.#values !== null) return this.#values;
    const values = (this.#values = new Map());
    const raw = this.#unread;
    if (raw !== null) {
      this.#unread = null;
      for (let i = 0; i < raw.length; i += 2) {
        const name = raw[i]!;
        if (name.charCodeAt(0) !== 58 /* ':' */) this.append(name, raw[i + 1]!);
      }
    }
    return values;
  }

  /** The first value, or `undefined`. */
  get(name: string): string | undefined {
    return this.#map().get(name.toLowerCase())?.[0];
  }

  /** Every value in order (empty when absent). */
  getAll(name: string): string[] {
    return this.#map().get(name.toLowerCase())?.slice() ?? [];
  }

  has(name: string): boolean {
    return this.#map().has(name.toLowerCase());
  }

  /** Replaces every value of `name`. */
  set(name: string, value: HeaderValue | number): this {
    this.#map().set(name.toLowerCase(), normalise(value));
    return this;
  }

  append(name: string, value: HeaderValue | number): this {
    const key = name.toLowerCase();
    const values = this.#map();
    const existing = values.get(key);
    if (existing === undefined) values.set(key, normalise(value));
    else existing.push(...normalise(value));
    return this;
  }

  delete(name: string): this {
    this.#map().delete(name.toLowerCase());
    return this;
  }

  get size(): number {
    return this.#map().size;
  }

  names(): string[] {
    return [...this.#map().keys()];
  }

  [Symbol.iterator](): IterableIterator<[string, string[]]> {
    return this.#map().entries();
  }

  /** A plain object, multi-valued names as arrays (the shape node:http's `setHeader` takes). */
  toObject(): Record<string, string | string[]> {
    const out: Record<string, string | string[]> = {};
    for (const [name, values] of this.#map()) out[name] = values.length === 1 ? values[0]! : [...values];
    return out;
  }
}

function normalise(value: HeaderValue | number): string[] {
  if (typeof value === 'number') return [String(value)];
  return typeof value === 'string' ? [value] : [...value];
}
