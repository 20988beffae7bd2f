import { decodePath, trimTrailingSlashes } from '../internal/decode-path.js';
import type { Route } from '../route/route.js';
import {
  methodNotAllowedMatch,
  notFoundMatch,
  redirectMatch,
  routeMatch,
  type MatchContext,
  type MatchResult,
  type RouteMatch,
  type TrailingSlashMode,
} from './match-result.js';

/**
 * The matching rules as the plainest loop: every route in declaration order, tried with its own
 * expression, then what follows a pass that found no route. This is the specification the
 * generated matcher (matcher-emitter.ts) must agree with on every table and path (the property
 * tests check it), and the matcher itself where code generation from strings is disallowed.
 *
 * One pass, per route, in this order:
 * 1. the route's expression (`^core/?$`) must match the decoded path;
 * 2. its host pattern must match the host;
 * 3. the trailing slash must agree with the route's (`/` itself has none), unless the route ends
 *    with a parameter that keeps the slash (`.+`, or an empty `.*` capture); a GET or HEAD that
 *    reaches a GET route this way ends the pass (a redirect follows, nothing else is reported);
 * 4. the scheme must be one of the route's (else it is remembered for a scheme redirect);
 * 5. the method (HEAD counts as GET too) must be one of the route's (else its methods join Allow).
 * The first route that passes all five wins; its params are its defaults overlaid by the captures.
 *
 * After a pass without a route: 405 when some route was refused for its method alone; otherwise,
 * for GET and HEAD in `redirect` mode, a redirect to the first refused scheme, or to the path with
 * its trailing slash toggled when that path matches; else 404.
 */
export function referenceMatch(routes: readonly Route[], rawPath: string, context: MatchContext, mode: TrailingSlashMode): MatchResult {
  const { method, host, scheme } = context;
  const first = pass(routes, rawPath, method, host, scheme, mode);
  if (first.kind === 'match') return first;
  if (first.allow.length > 0) return methodNotAllowedMatch(first.allow);
  if (mode !== 'redirect' || (method !== 'GET' && method !== 'HEAD')) return notFoundMatch(rawPath);
  const schemeRedirect = (path: string, to: string): MatchResult => {
    const again = pass(routes, path, method, host, to, mode);
    return again.kind === 'match' ? redirectMatch(again.route, again.params, path, to) : notFoundMatch(path);
  };
  if (first.schemes.length > 0) return schemeRedirect(rawPath, first.schemes[0]!);
  const trimmed = trimTrailingSlashes(rawPath);
  if (trimmed === '/') return notFoundMatch(rawPath);
  const toggled = trimmed === rawPath ? `${rawPath}/` : trimmed;
  const retry = pass(routes, toggled, method, host, scheme, mode);
  if (retry.kind === 'match') return redirectMatch(retry.route, retry.params, toggled, null);
  if (retry.schemes.length > 0) return schemeRedirect(toggled, retry.schemes[0]!);
  return notFoundMatch(toggled);
}

/** A pass without a route: the methods and schemes of the routes refused for them alone. */
interface Refusals {
  readonly kind: 'refused';
  readonly allow: string[];
  readonly schemes: string[];
}

function pass(
  routes: readonly Route[],
  rawPath: string,
  method: string,
  host: string,
  scheme: string,
  mode: TrailingSlashMode,
): RouteMatch | Refusals {
  const path = decodePath(rawPath);
  const trimmed = trimTrailingSlashes(path);
  const requestSlash = trimmed !== path;
  const canonical = method === 'HEAD' ? 'GET' : method;
  const refusals: Refusals = { kind: 'refused', allow: [], schemes: [] };
  for (const route of routes) {
    const compiled = route.compiled;
    let match = compiled.regex.exec(path);
    if (match === null) continue;
    let hostMatch: RegExpExecArray | null = null;
    if (compiled.hostRegex !== null) {
      hostMatch = compiled.hostRegex.exec(host);
      if (hostMatch === null) continue;
    }
    const kept = requestSlash && compiled.hasTrailingVar ? trailingParameterMatch(route, match, path) : null;
    if (kept !== null) match = kept;
    if (mode !== 'ignore' && kept === null && path !== '/' && compiled.hasTrailingSlash !== requestSlash) {
      if (mode === 'redirect' && canonical === 'GET' && (route.methods.length === 0 || route.methods.includes('GET'))) {
        return { kind: 'refused', allow: [], schemes: [] };
      }
      continue;
    }
    if (route.schemes.length > 0 && !route.schemes.includes(scheme)) {
      for (const s of route.schemes) if (!refusals.schemes.includes(s)) refusals.schemes.push(s);
      continue;
    }
    if (route.methods.length > 0 && !route.methods.includes(canonical) && !route.methods.includes(method)) {
      for (const m of route.methods) if (!refusals.allow.includes(m)) refusals.allow.push(m);
      continue;
    }
    return routeMatch(route, paramsOf(route, match, hostMatch));
  }
  return refusals;
}

/**
 * For a path ending with `/` and a route ending with a parameter: the match to take the params
 * from when that parameter decides the slash question (the slash check is then skipped), or
 * `null` when the ordinary trailing-slash rule applies. The parameter keeps the slash when its
 * capture ends with one or is empty; otherwise the slash-trimmed path is tried: when it matches
 * too, a route that has a trailing slash reads its params from it, one without follows the rule.
 */
export function trailingParameterMatch(route: Route, match: RegExpExecArray, path: string): RegExpExecArray | null {
  const compiled = route.compiled;
  const last = match[compiled.core.variables.length];
  if (compiled.hasTrailingSlash || last === undefined || (last !== '' && !last.endsWith('/'))) {
    const trimmedMatch = compiled.regex.exec(trimTrailingSlashes(path));
    if (trimmedMatch !== null) return compiled.hasTrailingSlash ? trimmedMatch : null;
  }
  return match;
}

/** The route's defaults overlaid by the path's then the host's captures (a group that did not take part sets nothing). */
export function paramsOf(route: Route, match: RegExpExecArray, hostMatch: RegExpExecArray | null): Record<string, unknown> {
  const params: Record<string, unknown> = { ...route.defaults };
  const compiled = route.compiled;
  const names = compiled.core.variables;
  for (let i = 0; i < names.length; i++) if (match[i + 1] !== undefined) params[names[i]!] = match[i + 1];
  if (hostMatch !== null) {
    const hostNames = compiled.host!.variables;
    for (let i = 0; i < hostNames.length; i++) if (hostMatch[i + 1] !== undefined) params[hostNames[i]!] = hostMatch[i + 1];
  }
  return params;
}
