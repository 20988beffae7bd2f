import { RouteCollection, Router, type MatchResult, type RouteOptions, type RouterOptions } from '../../src/index.js';

/** A router over `[name, path, options]` rows, in that order. */
export function routerOf(rows: ReadonlyArray<readonly [string, string, RouteOptions?]>, options?: RouterOptions): Router {
  const routes = new RouteCollection();
  for (const [name, path, routeOptions] of rows) routes.add(name, path, routeOptions);
  return new Router(routes, options);
}

/** The result with the route replaced by its name: easy to compare with `toEqual`. */
export type PlainResult =
  | { kind: 'match'; route: string; params: Record<string, unknown> }
  | { kind: 'redirect'; route: string; params: Record<string, unknown>; path: string; scheme: string | null }
  | { kind: 'not-found'; path: string }
  | { kind: 'method-not-allowed'; allowedMethods: readonly string[] };

export function plain(result: MatchResult): PlainResult {
  if (result.kind === 'match' || result.kind === 'redirect') return { ...result, route: result.route.name };
  return result;
}

export function match(router: Router, method: string, path: string, host = 'localhost', scheme = 'http'): PlainResult {
  return plain(router.matchPath(path, { method, host, scheme }));
}
