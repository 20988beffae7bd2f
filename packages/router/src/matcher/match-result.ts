import type { Route } from '../route/route.js';

/** What matching needs of a request besides its path. `RequestContext` is one. */
export interface MatchContext {
  /** Upper-case method; HEAD is matched as GET too. */
  readonly method: string;
  /** Lower-case host without port. */
  readonly host: string;
  /** Lower-case scheme. */
  readonly scheme: string;
}

/** A route matched. `params` = the route's defaults overlaid by captured (decoded) values. */
export interface RouteMatch {
  readonly kind: 'match';
  readonly route: Route;
  readonly params: Record<string, unknown>;
}

/**
 * The route matches once the trailing slash is toggled (or with another scheme): answer with a
 * redirect to `path` (still percent-encoded as received, slash toggled) on `scheme`.
 */
export interface RedirectMatch {
  readonly kind: 'redirect';
  readonly route: Route;
  readonly params: Record<string, unknown>;
  readonly path: string;
  /** The scheme to redirect to, or `null` to keep the request's. */
  readonly scheme: string | null;
}

/** No route: `path` is what Symfony's message names (the toggled path after a slash retry). */
export interface NotFoundMatch {
  readonly kind: 'not-found';
  readonly path: string;
}

/** Routes match the path but none allows the method. */
export interface MethodNotAllowedMatch {
  readonly kind: 'method-not-allowed';
  /** Union over the matching routes, declaration order, upper-case, no duplicates, HEAD never added. */
  readonly allowedMethods: readonly string[];
}

export type MatchResult = RouteMatch | RedirectMatch | NotFoundMatch | MethodNotAllowedMatch;

/** What the router does with a path whose trailing slash differs from the route's. */
export type TrailingSlashMode = 'redirect' | 'strict' | 'ignore';

/**
 * Every result is built by these functions, with every field present (absent ones `undefined`),
 * so a reader of a result never needs to ask which kind of outcome it holds before reading a field.
 */
class Result {
  constructor(
    readonly kind: MatchResult['kind'],
    readonly route: Route | undefined,
    readonly params: Record<string, unknown> | undefined,
    readonly path: string | undefined,
    readonly scheme: string | null | undefined,
    readonly allowedMethods: readonly string[] | undefined,
  ) {}
}

export function routeMatch(route: Route, params: Record<string, unknown>): RouteMatch {
  return new Result('match', route, params, undefined, undefined, undefined) as RouteMatch;
}

export function redirectMatch(route: Route, params: Record<string, unknown>, path: string, scheme: string | null): RedirectMatch {
  return new Result('redirect', route, params, path, scheme, undefined) as RedirectMatch;
}

export function notFoundMatch(path: string): NotFoundMatch {
  return new Result('not-found', undefined, undefined, path, undefined, undefined) as NotFoundMatch;
}

export function methodNotAllowedMatch(allowedMethods: readonly string[]): MethodNotAllowedMatch {
  return new Result('method-not-allowed', undefined, undefined, undefined, undefined, allowedMethods) as MethodNotAllowedMatch;
}
