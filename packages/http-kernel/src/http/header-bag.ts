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
  readonly #values = new Map<string, string[]>();

  constructor(init?: HeaderInit) {
    if (init === undefined) return;
    if (init instanceof HeaderBag) {
      for (const [name, values] of init.#values) this.#values.set(name, [...values]);
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

  /** The first value, or `undefined`. */
  get(name: string): string | undefined {
    return this.#values.get(name.toLowerCase())?.[0];
  }

  /** Every value in order (empty when absent). */
  getAll(name: string): string[] {
    return this.#values.get(name.toLowerCase())?.slice() ?? [];
  }

  has(name: string): boolean {
    return this.#values.has(name.toLowerCase());
  }

  /** Replaces every value of `name`. */
  set(name: string, value: HeaderValue | number): this {
    this.#values.set(name.toLowerCase(), normalise(value));
    return this;
  }

  append(name: string, value: HeaderValue | number): this {
    const key = name.toLowerCase();
    const existing = this.#values.get(key);
    if (existing === undefined) this.#values.set(key, normalise(value));
    else existing.push(...normalise(value));
    return this;
  }

  delete(name: string): this {
    this.#values.delete(name.toLowerCase());
    return this;
  }

  get size(): number {
    return this.#values.size;
  }

  names(): string[] {
    return [...this.#values.keys()];
  }

  [Symbol.iterator](): IterableIterator<[string, string[]]> {
    return this.#values.entries();
  }

  /** A plain object, multi-valued names as arrays (the shape node:http's `setHeader` takes). */
  toObject(): Record<string, string | string[]> {
    const out: Record<string, string | string[]> = {};
    for (const [name, values] of this.#values) out[name] = values.length === 1 ? values[0]! : [...values];
    return out;
  }
}

function normalise(value: HeaderValue | number): string[] {
  if (typeof value === 'number') return [String(value)];
  return typeof value === 'string' ? [value] : [...value];
}
