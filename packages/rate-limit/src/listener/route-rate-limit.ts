import { assertLimitDefinition, type RateLimitPolicy } from '../policy/limit-definition.js';

/**
 * A route's rate limit, declared as its `_rate_limit` default (one limit, or several checked as a
 * compound limit): `{ policy: 'sliding_window', limit: 10, intervalMs: 60_000, by: 'user' }`.
 */
export interface RouteRateLimit {
  readonly policy: RateLimitPolicy;
  readonly limit: number;
  /** Milliseconds. */
  readonly intervalMs: number;
  /**
   * Whose hits are counted: `client` (the default) by client address; `user` by the authenticated
   * user (the listener's `userOf`), or by client address for an anonymous request.
   */
  readonly by?: 'client' | 'user';
  /** Names the limit (keys, headers, profiler). Default: the route's name, with `-<n>` for the n-th limit of a list. */
  readonly id?: string;
}

export type RouteRateLimitDeclaration = RouteRateLimit | readonly RouteRateLimit[];

declare module '@switchboard/http-kernel' {
  interface RequestAttributes {
    /** The route's rate limit (`RouteRateLimitListener`), from its `_rate_limit` default. */
    _rate_limit?: RouteRateLimitDeclaration;
  }
}

const KNOWN = new Set(['policy', 'limit', 'intervalMs', 'by', 'id']);

/**
 * Checks a declaration when the route is defined (a typo fails at startup) and returns it.
 * @example routes.add('search', '/search', { controller, defaults: { _rate_limit: defineRateLimit({ policy: 'fixed_window', limit: 30, intervalMs: 60_000 }) } })
 */
export function defineRateLimit<D extends RouteRateLimitDeclaration>(declaration: D): D {
  assertRouteRateLimit(declaration);
  return declaration;
}

export function assertRouteRateLimit(declaration: RouteRateLimitDeclaration): void {
  const limits: readonly RouteRateLimit[] = Array.isArray(declaration) ? declaration : [declaration as RouteRateLimit];
  if (limits.length === 0) throw new TypeError('A _rate_limit list needs at least one limit.');
  for (const limit of limits) {
    if (typeof limit !== 'object' || limit === null) throw new TypeError('A _rate_limit must be an object (or a list of them).');
    for (const key of Object.keys(limit)) {
      if (!KNOWN.has(key)) throw new TypeError(`Unknown _rate_limit option "${key}" (known: ${[...KNOWN].join(', ')}).`);
    }
    if (limit.by !== undefined && limit.by !== 'client' && limit.by !== 'user') {
      throw new TypeError(`The _rate_limit option "by" must be "client" or "user", got ${JSON.stringify(limit.by)}.`);
    }
    assertLimitDefinition({ id: limit.id ?? 'route', policy: limit.policy, limit: limit.limit, intervalMs: limit.intervalMs });
  }
}

/**
 * A route's declared limits, or `null` when it has none: for tools that describe routes (an
 * OpenAPI document's 429 answer). Takes anything with the router's `defaults` (a `Route`).
 */
export function rateLimitOf(route: { readonly defaults: Readonly<Record<string, unknown>> }): readonly RouteRateLimit[] | null {
  const declared = route.defaults['_rate_limit'] as RouteRateLimitDeclaration | undefined;
  if (declared === undefined) return null;
  return Array.isArray(declared) ? declared : [declared as RouteRateLimit];
}
