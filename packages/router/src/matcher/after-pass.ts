import { trimTrailingSlashes } from '../internal/decode-path.js';
import {
  methodNotAllowedMatch,
  notFoundMatch,
  redirectMatch,
  type MatchContext,
  type MatchResult,
  type NotFoundMatch,
  type RouteMatch,
  type TrailingSlashMode,
} from './match-result.js';

/**
 * What the routes a pass refused for their method or scheme alone allow (declaration order, no
 * duplicates); `null` where no route was refused for that. A GET that reached a GET route across
 * the trailing slash ends the pass with none (a redirect follows, nothing else counts).
 */
export interface RefusedRoutes {
  readonly allow: readonly string[] | null;
  readonly schemes: readonly string[] | null;
}

export const NO_REFUSALS: RefusedRoutes = Object.freeze({ allow: null, schemes: null });

/** One more pass over the routes, for a raw path in a context: the route found, or what those refused allow. */
export type Pass = (rawPath: string, context: MatchContext) => RouteMatch | RefusedRoutes;

/**
 * What follows a pass that found no route (both walks share it: the reference loop and the
 * generated matcher). 405 when some route was refused for its method alone; otherwise, for GET
 * and HEAD in `redirect` mode, a redirect to the first refused scheme, or to the path with its
 * trailing slash toggled when that path matches (or matches on a scheme some route requires);
 * else 404, naming the toggled path once a retry was due. `toggledMayMatch`: `false` when the
 * caller knows the toggled path reaches no route (the retry is skipped).
 */
export function afterPass(
  refused: RefusedRoutes,
  rawPath: string,
  context: MatchContext,
  mode: TrailingSlashMode,
  pass: Pass,
  toggledMayMatch = true,
): MatchResult {
  if (refused.allow !== null) return methodNotAllowedMatch(refused.allow);
  if (refused.schemes === null && !toggledMayMatch) return notFoundWithoutRetry(rawPath, context.method, mode);
  if (mode !== 'redirect' || (context.method !== 'GET' && context.method !== 'HEAD')) return notFoundMatch(rawPath);
  if (refused.schemes !== null) return redirectToScheme(rawPath, context, refused.schemes[0]!, pass);
  const toggled = toggleSlash(rawPath);
  if (toggled === '/') return notFoundMatch(rawPath);
  const retry = pass(toggled, context);
  if (isRouteMatch(retry)) return redirectMatch(retry.route, retry.params, toggled, null);
  if (retry.schemes !== null) return redirectToScheme(toggled, context, retry.schemes[0]!, pass);
  return notFoundMatch(toggled);
}

/**
 * `afterPass` for a pass that refused no route for its method or scheme, when the toggled path
 * reaches no route either: the 404, naming the toggled path where a retry would have been due.
 * The generated matcher's most common miss calls it directly.
 */
export function notFoundWithoutRetry(rawPath: string, method: string, mode: TrailingSlashMode): NotFoundMatch {
  if (mode !== 'redirect' || (method !== 'GET' && method !== 'HEAD')) return notFoundMatch(rawPath);
  const toggled = toggleSlash(rawPath);
  return notFoundMatch(toggled === '/' ? rawPath : toggled);
}

function redirectToScheme(rawPath: string, context: MatchContext, scheme: string, pass: Pass): MatchResult {
  const found = pass(rawPath, { method: context.method, host: context.host, scheme });
  return isRouteMatch(found) ? redirectMatch(found.route, found.params, rawPath, scheme) : notFoundMatch(rawPath);
}

function isRouteMatch(outcome: RouteMatch | RefusedRoutes): outcome is RouteMatch {
  return (outcome as Partial<RouteMatch>).kind === 'match';
}

/** The path with its trailing slashes removed, or with one added when it has none (`/` stays `/`). */
export function toggleSlash(rawPath: string): string {
  const trimmed = trimTrailingSlashes(rawPath);
  return trimmed === rawPath && rawPath !== '/' ? `${rawPath}/` : trimmed;
}

/** `into` with the values it lacks appended (a new list when `into` is `null`). */
export function union(into: string[] | null, values: readonly string[]): string[] {
  if (into === null) return [...values];
  for (const value of values) if (!into.includes(value)) into.push(value);
  return into;
}
