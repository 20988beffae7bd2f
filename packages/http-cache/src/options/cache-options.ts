import type { Request } from '@switchboard/http-kernel';

/**
 * Computes a validator from the request and the resolved controller arguments, before the
 * controller runs. Return `null` (or `undefined`) when there is none for this request.
 */
export type ValidatorFunction<T> = (request: Request, args: readonly unknown[]) => T | null | undefined | PromiseLike<T | null | undefined>;

/**
 * A route's caching, declared as its `_cache` default (so the `_cache` request attribute).
 * Ages are whole seconds.
 */
export interface CacheOptions {
  /** `true` → `public` (shared caches may store it); `false` → `private`. Unset: `private` is added by the default rule. */
  public?: boolean;
  /** `max-age`: how long any cache may serve it without asking. */
  maxAgeSeconds?: number;
  /** `s-maxage`: the same for shared caches (implies they may store it). */
  sMaxAgeSeconds?: number;
  /** `stale-while-revalidate` (RFC 5861). */
  staleWhileRevalidateSeconds?: number;
  /** `stale-if-error` (RFC 5861). */
  staleIfErrorSeconds?: number;
  /** `must-revalidate`: a stale copy is never served without asking. */
  mustRevalidate?: boolean;
  /** Request headers the response depends on, merged into `Vary`. */
  vary?: readonly string[];
  /**
   * The entity tag. A quoted tag (`"v1"`, `W/"v1"`) is used as is, a bare token is quoted, anything
   * else is hashed (SHA-256) into a tag — so returning a version string or a content digest works.
   */
  etag?: ValidatorFunction<string>;
  /** When the resource last changed. */
  lastModified?: ValidatorFunction<Date>;
}

declare module '@switchboard/http-kernel' {
  interface RequestAttributes {
    /** The route's caching (a route default): read by the CacheAttributeListener. */
    _cache?: CacheOptions;
  }
}

const AGES = ['maxAgeSeconds', 'sMaxAgeSeconds', 'staleWhileRevalidateSeconds', 'staleIfErrorSeconds'] as const;
const KNOWN = new Set<string>(['public', 'mustRevalidate', 'vary', 'etag', 'lastModified', ...AGES]);
/** RFC 9110 token: what a header name may be made of. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Checks a cache declaration, naming the first mistake (a typo'd option must not be silently ignored). */
export function assertCacheOptions(options: unknown): asserts options is CacheOptions {
  if (typeof options !== 'object' || options === null) throw new TypeError('The _cache route option must be an object.');
  const record = options as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!KNOWN.has(key)) throw new TypeError(`Unknown _cache option "${key}" (known: ${[...KNOWN].join(', ')}).`);
  }
  for (const age of AGES) {
    const value = record[age];
    if (value !== undefined && !(Number.isSafeInteger(value) && (value as number) >= 0)) {
      throw new TypeError(`The _cache option "${age}" must be a whole number of seconds ≥ 0, got ${JSON.stringify(value)}.`);
    }
  }
  for (const flag of ['public', 'mustRevalidate'] as const) {
    if (record[flag] !== undefined && typeof record[flag] !== 'boolean')
      throw new TypeError(`The _cache option "${flag}" must be a boolean.`);
  }
  const vary = record['vary'];
  if (vary !== undefined && !(Array.isArray(vary) && vary.every((name) => typeof name === 'string' && HEADER_NAME.test(name)))) {
    throw new TypeError('The _cache option "vary" must be an array of header names.');
  }
  for (const validator of ['etag', 'lastModified'] as const) {
    if (record[validator] !== undefined && typeof record[validator] !== 'function') {
      throw new TypeError(`The _cache option "${validator}" must be a function of (request, args).`);
    }
  }
}

/**
 * Declares a route's caching, checked at once (at start-up, where the routes are defined).
 *
 * @example routes.add('item_show', '/items/{id}', show, { defaults: { _cache: defineCache({ public: true, maxAgeSeconds: 60 }) } })
 */
export function defineCache(options: CacheOptions): CacheOptions {
  assertCacheOptions(options);
  return options;
}
