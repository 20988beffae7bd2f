import { decodePath, trimTrailingSlashes } from '../internal/decode-path.js';
import type { Route } from '../route/route.js';
import { afterPass, union, type RefusedRoutes } from './after-pass.js';
import { routeMatch, type MatchContext, type MatchResult, type RouteMatch, type TrailingSlashMode } from './match-result.js';

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
 * After a pass without a route: 405, a scheme or trailing-slash redirect, or 404 (after-pass.ts,
 * shared with the generated matcher). The profiler's match log is this pass, observed.
 */
export function referenceMatch(routes: readonly Route[], rawPath: string, context: MatchContext, mode: TrailingSlashMode): MatchResult {
  const first = referencePass(routes, rawPath, context, mode);
  if (first.kind === 'match') return first;
  return afterPass(first, rawPath, context, mode, (path, again) => referencePass(routes, path, again, mode));
}

/**
 * How the rule ended for one route, in its order: its path, host, trailing slash, scheme or method
 * refused the request, or it matched. `slash-redirect`: a GET or HEAD reached a GET route across
 * the trailing slash in `redirect` mode, which ends the pass.
 */
export type RuleVerdict = 'path' | 'host' | 'slash' | 'slash-redirect' | 'scheme' | 'method' | 'match';

/** Told each route's verdict as the pass reaches it (the match log words them); routes after the pass's end are not told. */
export type RuleObserver = (route: Route, verdict: RuleVerdict) => void;

/** What a pass refused, gathered as it goes. */
interface PassRefusals extends RefusedRoutes {
  readonly kind: 'refused';
  allow: string[] | null;
  schemes: string[] | null;
}

/** One pass of the rule over the routes in order: the first route that passes it, or what those refused allow. */
export function referencePass(
  routes: Iterable<Route>,
  rawPath: string,
  context: MatchContext,
  mode: TrailingSlashMode,
  observe?: RuleObserver,
): RouteMatch | PassRefusals {
  const { method, host, scheme } = context;
  const path = decodePath(rawPath);
  const trimmed = trimTrailingSlashes(path);
  const requestSlash = trimmed !== path;
  const canonical = method === 'HEAD' ? 'GET' : method;
  const refusals: PassRefusals = { kind: 'refused', allow: null, schemes: null };
  for (const route of routes) {
    const compiled = route.compiled;
    let match = compiled.regex.exec(path);
    if (match === null) {
      observe?.(route, 'path');
      continue;
    }
    let hostMatch: RegExpExecArray | null = null;
    if (compiled.hostRegex !== null) {
      hostMatch = compiled.hostRegex.exec(host);
      if (hostMatch === null) {
        observe?.(route, 'host');
        continue;
      }
    }
    const kept = requestSlash && compiled.hasTrailingVar ? trailingParameterMatch(route, match, path) : null;
    if (kept !== null) match = kept;
    if (mode !== 'ignore' && kept === null && path !== '/' && compiled.hasTrailingSlash !== requestSlash) {
      if (mode === 'redirect' && canonical === 'GET' && (route.methods.length === 0 || route.methods.includes('GET'))) {
        observe?.(route, 'slash-redirect');
        return { kind: 'refused', allow: null, schemes: null };
      }
      observe?.(route, 'slash');
      continue;
    }
    if (route.schemes.length > 0 && !route.schemes.includes(scheme)) {
      refusals.schemes = union(refusals.schemes, route.schemes);
      observe?.(route, 'scheme');
      continue;
    }
    if (route.methods.length > 0 && !route.methods.includes(canonical) && !route.methods.includes(method)) {
      refusals.allow = union(refusals.allow, route.methods);
      observe?.(route, 'method');
      continue;
    }
    observe?.(route, 'match');
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
