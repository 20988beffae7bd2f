import type { Controller } from '../controller/controller.js';

/**
 * Known request attributes. Packages add their own keys by declaration merging:
 * `declare module '@switchboard/http-kernel' { interface RequestAttributes { _firewall?: string } }`.
 */
export interface RequestAttributes {
  /** Name of the matched route. */
  _route?: string;
  /** Path template of the matched route (e.g. `/items/{id}`), as tracing reports it (`http.route`). */
  _route_path?: string;
  /** The controller to call: a function, or a name the ControllerResolver knows. */
  _controller?: Controller | string;
  /** Route parameters (route defaults overlaid by captured values), without `_route`/`_controller`. Read-only. */
  _route_params?: Readonly<Record<string, unknown>>;
  _locale?: string;
  /** The formats a route answers in (`ViewListener`), by encoder name: `['json', 'ndjson']`. */
  _formats?: readonly string[];
  /** Set when the route or the firewall says the request keeps no session. */
  _stateless?: boolean;
  /** The error an error sub-request renders. */
  exception?: unknown;
  /** This request's id (`RequestIdListener`): echoed in `X-Request-Id`, in problem documents and log lines. */
  _request_id?: string;
}

type AttributeKey = keyof RequestAttributes | (string & {});
type AttributeValue<K> = K extends keyof RequestAttributes ? RequestAttributes[K] : unknown;

/**
 * Request attributes: routing results and whatever listeners attach for later steps. Kept as one
 * flat list of keys and values, made on the first write: a request has a handful of attributes,
 * which a scan finds as fast as a map does, without the map's table to grow (docs/decisions.md D13).
 */
export class AttributeBag {
  /** `[key, value, key, value…]`; `null` until the first attribute. */
  #entries: unknown[] | null;
  /** Whether `#entries` is the list given to `setPairs`, read in place until the bag's first change. */
  #shared: boolean;

  constructor(init?: Iterable<readonly [string, unknown]>) {
    this.#entries = null;
    this.#shared = false;
    if (init !== undefined) for (const [key, value] of init) this.set(key, value);
  }

  get<K extends AttributeKey>(key: K): AttributeValue<K> | undefined {
    const entries = this.#entries;
    if (entries === null) return undefined;
    for (let i = 0; i < entries.length; i += 2) if (entries[i] === key) return entries[i + 1] as AttributeValue<K>;
    return undefined;
  }

  set<K extends AttributeKey>(key: K, value: AttributeValue<K>): this {
    const entries = this.#toChange();
    for (let i = 0; i < entries.length; i += 2) {
      if (entries[i] === key) {
        entries[i + 1] = value;
        return this;
      }
    }
    entries.push(key, value);
    return this;
  }

  /**
   * Sets each key of `pairs` (`[key, value, key, value…]`) to the value after it. An empty bag
   * reads the list itself until its first change, which copies it: attributes that are the same
   * on every request (a static route's) are built once, set in one step and copied only if
   * changed. `pairs` must not change afterwards.
   */
  setPairs(pairs: readonly unknown[]): this {
    if (this.#entries === null || this.#entries.length === 0) {
      this.#entries = pairs as unknown[];
      this.#shared = true;
      return this;
    }
    for (let i = 0; i < pairs.length; i += 2) this.set(pairs[i] as string, pairs[i + 1]);
    return this;
  }

  has(key: AttributeKey): boolean {
    const entries = this.#entries;
    if (entries === null) return false;
    for (let i = 0; i < entries.length; i += 2) if (entries[i] === key) return true;
    return false;
  }

  delete(key: AttributeKey): this {
    const entries = this.#entries;
    if (entries === null) return this;
    for (let i = 0; i < entries.length; i += 2) {
      if (entries[i] === key) {
        this.#toChange().splice(i, 2);
        break;
      }
    }
    return this;
  }

  /** The list, about to change: the bag's own from now on. */
  #toChange(): unknown[] {
    if (this.#entries === null) this.#entries = [];
    else if (this.#shared) {
      this.#entries = this.#entries.slice();
      this.#shared = false;
    }
    return this.#entries;
  }

  /** Copy of every attribute. */
  all(): Record<string, unknown> {
    const all: Record<string, unknown> = {};
    for (const [key, value] of this.entries()) all[key] = value;
    return all;
  }

  *keys(): IterableIterator<string> {
    for (const [key] of this.entries()) yield key;
  }

  /** Each key with its value, in the order they were first set. */
  *entries(): IterableIterator<[string, unknown]> {
    const entries = this.#entries;
    if (entries === null) return;
    for (let i = 0; i < entries.length; i += 2) yield [entries[i] as string, entries[i + 1]];
  }
}
