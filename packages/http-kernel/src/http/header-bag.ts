export type HeaderValue = string | readonly string[];
export type HeaderInit = HeaderBag | Iterable<readonly [string, HeaderValue]> | Readonly<Record<string, HeaderValue | number | undefined>>;

/**
 * Case-insensitive, multi-valued headers. Names are stored lower-cased (as HTTP/2 and
 * node:http present them); values keep their order.
 */
export class HeaderBag implements Iterable<[string, string[]]> {
  /** Built on first use: a bag from `fromRawList` that nobody reads never allocates it. */
  #values: Map<string, string[]> | null;
  /**
   * The raw list this bag holds exactly, until its first write: a copy made before then reads
   * the same list on its own first use instead of copying the map (an error sub-request copies
   * its request's headers, and mostly reads one of them).
   */
  #raw: readonly string[] | null;

  constructor(init?: HeaderInit) {
    this.#values = null;
    this.#raw = null;
    if (init === undefined) return;
    // A bag still equal to its raw list (or never used at all) is copied by sharing that list.
    if (init instanceof HeaderBag && (init.#raw !== null || init.#values === null)) {
      this.#raw = init.#raw;
      return;
    }
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
    bag.#raw = raw;
    return bag;
  }

  #map(): Map<string, string[]> {
    if (this.#values !== null) return this.#values;
    const values = (this.#values = new Map<string, string[]>());
    const raw = this.#raw;
    if (raw !== null) {
      for (let i = 0; i < raw.length; i += 2) {
        const name = raw[i]!;
        if (name.charCodeAt(0) === 58 /* ':' */) continue;
        const key = name.toLowerCase();
        const existing = values.get(key);
        if (existing === undefined) values.set(key, [raw[i + 1]!]);
        else existing.push(raw[i + 1]!);
      }
    }
    return values;
  }

  /** The map, about to be changed: from now on the bag no longer matches its raw list. */
  #mapToChange(): Map<string, string[]> {
    const values = this.#map();
    this.#raw = null;
    return values;
  }

  /** The first value, or `undefined`. */
  get(name: string): string | undefined {
    const key = name.toLowerCase();
    // A bag still equal to its raw list answers from the list: most requests read a header or two.
    if (this.#values === null && this.#raw !== null) return firstRawValue(this.#raw, key);
    return this.#map().get(key)?.[0];
  }

  /** Every value in order (empty when absent). */
  getAll(name: string): string[] {
    return this.#map().get(name.toLowerCase())?.slice() ?? [];
  }

  has(name: string): boolean {
    const key = name.toLowerCase();
    if (this.#values === null && this.#raw !== null) return firstRawValue(this.#raw, key) !== undefined;
    return this.#map().has(key);
  }

  /** Replaces every value of `name`. */
  set(name: string, value: HeaderValue | number): this {
    this.#mapToChange().set(name.toLowerCase(), normalise(value));
    return this;
  }

  append(name: string, value: HeaderValue | number): this {
    const key = name.toLowerCase();
    const values = this.#mapToChange();
    const existing = values.get(key);
    if (existing === undefined) values.set(key, normalise(value));
    else existing.push(...normalise(value));
    return this;
  }

  delete(name: string): this {
    this.#mapToChange().delete(name.toLowerCase());
    return this;
  }

  get size(): number {
    return this.#map().size;
  }

  names(): string[] {
    return [...this.#map().keys()];
  }

  /** Each name with its values; the arrays are the bag's own, to read, not to change. */
  [Symbol.iterator](): IterableIterator<[string, string[]]> {
    return this.#map().entries();
  }

  /**
   * A flat raw list `[name, value, name, value…]`, a multi-valued header as several pairs (the
   * shape node:http's `writeHead` takes), without the names in `omit`.
   */
  toRawList(omit?: ReadonlySet<string>): string[] {
    const list: string[] = [];
    for (const [name, values] of this.#map()) {
      if (omit?.has(name)) continue;
      for (let i = 0; i < values.length; i++) list.push(name, values[i]!);
    }
    return list;
  }

  /** A plain object, multi-valued names as arrays (the shape node:http's `setHeader` takes). */
  toObject(): Record<string, string | string[]> {
    const out: Record<string, string | string[]> = {};
    for (const [name, values] of this.#map()) out[name] = values.length === 1 ? values[0]! : [...values];
    return out;
  }
}

/** The value of the first field named `key` (lower-case) in a raw list; pseudo-headers never match. */
function firstRawValue(raw: readonly string[], key: string): string | undefined {
  if (key.charCodeAt(0) === 58 /* ':' */) return undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === key.length && name.toLowerCase() === key) return raw[i + 1];
  }
  return undefined;
}

function normalise(value: HeaderValue | number): string[] {
  if (typeof value === 'number') return [String(value)];
  return typeof value === 'string' ? [value] : [...value];
}
