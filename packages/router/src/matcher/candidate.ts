import type { Route } from '../route/route.js';
import { routeMatch, type RouteMatch } from './match-result.js';

/** A route as the emitter writes its rule: what it checks, known before any request. */
export interface Candidate {
  readonly route: Route;
  /** Position in the collection: the order routes are tried in, and the route's name in generated code. */
  readonly index: number;
  /** Upper-case allowed methods, empty for any. */
  readonly methodList: readonly string[];
  /** The route may answer GET, so a slash mismatch redirects instead of skipping it. */
  readonly acceptsGet: boolean;
  /** Allowed schemes, empty for any. */
  readonly schemeList: readonly string[];
  readonly hostRegex: RegExp | null;
  readonly hasTrailingSlash: boolean;
  readonly hasTrailingVar: boolean;
  /** The route's own `^core/?$` expression. */
  readonly regex: RegExp;
  /** Path parameter names in capture order. */
  readonly pathVariables: readonly string[];
  readonly defaults: Readonly<Record<string, unknown>>;
  /**
   * The one result of a route without parameters in its path or host: every request it accepts
   * gets the same params, so the result is built once and shared (its params are frozen).
   */
  readonly fixedResult: RouteMatch | null;
}

export function candidateOf(route: Route, index: number): Candidate {
  const compiled = route.compiled;
  return {
    route,
    index,
    methodList: route.methods,
    acceptsGet: route.methods.length === 0 || route.methods.includes('GET'),
    schemeList: route.schemes,
    hostRegex: compiled.hostRegex,
    hasTrailingSlash: compiled.hasTrailingSlash,
    hasTrailingVar: compiled.hasTrailingVar,
    regex: compiled.regex,
    pathVariables: compiled.core.variables,
    defaults: route.defaults,
    fixedResult: compiled.variables.length === 0 ? routeMatch(route, Object.freeze({ ...route.defaults })) : null,
  };
}
