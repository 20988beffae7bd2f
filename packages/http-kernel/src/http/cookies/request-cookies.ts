import { parseCookie } from 'cookie';

/**
 * The cookies a request carries, read from its `Cookie` header(s) when first asked for. Values
 * are percent-decoded as `response.cookies.set` encodes them; a name sent twice keeps its first
 * value (the browser sends the most specific path first).
 */
export class RequestCookies implements Iterable<[string, string]> {
  readonly #values: ReadonlyMap<string, string>;

  constructor(headerValues: readonly string[]) {
    const values = new Map<string, string>();
    for (const header of headerValues) {
      for (const [name, value] of Object.entries(parseCookie(header))) {
        if (value !== undefined && !values.has(name)) values.set(name, value);
      }
    }
    this.#values = values;
  }

  get(name: string): string | undefined {
    return this.#values.get(name);
  }

  has(name: string): boolean {
    return this.#values.has(name);
  }

  get size(): number {
    return this.#values.size;
  }

  /** A copy of every cookie, name to value. */
  all(): Record<string, string> {
    return Object.fromEntries(this.#values);
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.#values.entries();
  }
}
