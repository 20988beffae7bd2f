import { decodePath } from '../internal/decode-path.js';
import { compilePattern } from '../route/compiled-pattern.js';
import type { Route } from '../route/route.js';
import type { MatchContext, TrailingSlashMode } from '../matcher/match-result.js';
import { referencePass, type RuleVerdict } from '../matcher/reference-loop.js';

/** How far a route got with a request: `match`, `almost` (path matched, something else did not), `none`. */
export type RouteTraceLevel = 'match' | 'almost' | 'none';

export interface RouteTrace {
  readonly name: string;
  readonly path: string;
  readonly level: RouteTraceLevel;
  /** Why, in words: `Method "DELETE" does not match any of the required methods (GET, POST)`. */
  readonly reason: string;
}

/**
 * For diagnostics only (the profiler's router panel): every route in order with the reason it
 * did or did not match. It is the matcher's reference pass (reference-loop.ts) run with an
 * observer that words each route's verdict, so it judges as the matcher does in every
 * trailing-slash mode. Slow on purpose (one expression per route) and only built when asked.
 * Routes after the pass ended (a match, or a trailing-slash redirect) are reported as not tried.
 */
export function traceRoutes(
  routes: Iterable<Route>,
  rawPath: string,
  context: MatchContext,
  mode: TrailingSlashMode = 'redirect',
): RouteTrace[] {
  const all = [...routes];
  const traces: RouteTrace[] = [];
  const trace = (route: Route, level: RouteTraceLevel, reason: string) =>
    traces.push({ name: route.name, path: route.path, level, reason });
  let path: string;
  try {
    path = decodePath(rawPath);
  } catch (error) {
    for (const route of all) trace(route, 'none', (error as Error).message);
    return traces;
  }
  let ended: RuleVerdict | null = null;
  referencePass(all, rawPath, context, mode, (route, verdict) => {
    if (verdict === 'match' || verdict === 'slash-redirect') ended = verdict;
    if (verdict === 'path') trace(route, ...pathMismatch(route, path));
    else trace(route, verdict === 'match' ? 'match' : 'almost', reasonOf(route, verdict, context));
  });
  const notTried =
    ended === 'match'
      ? 'Not tried: an earlier route matched.'
      : 'Not tried: an earlier route ended the pass with a trailing-slash redirect.';
  for (const route of all.slice(traces.length)) trace(route, 'none', notTried);
  return traces;
}

/** A verdict other than a path mismatch, in words. */
function reasonOf(route: Route, verdict: Exclude<RuleVerdict, 'path'>, context: MatchContext): string {
  const slash = `The trailing slash differs (the route has ${route.compiled.hasTrailingSlash ? 'one' : 'none'})`;
  switch (verdict) {
    case 'host':
      return `Host "${context.host}" does not match the requirement ("${route.host}").`;
    case 'slash':
      return `${slash}.`;
    case 'slash-redirect':
      return `${slash}: a GET or HEAD request is redirected to the path with it toggled.`;
    case 'scheme':
      return `Scheme "${context.scheme}" does not match any of the required schemes (${route.schemes.join(', ')}).`;
    case 'method':
      return `Method "${context.method}" does not match any of the required methods (${route.methods.join(', ')}).`;
    case 'match':
      return 'Route matches!';
  }
}

/** Tells a requirement failure (the path matches with default requirements) from a path that does not fit at all. */
function pathMismatch(route: Route, path: string): [RouteTraceLevel, string] {
  const corePath = route.path === '/' ? '' : route.compiled.hasTrailingSlash ? route.path.slice(0, -1) : route.path;
  const relaxed = compilePattern(corePath, {}, '/');
  const match = new RegExp(`^${relaxed.source}/?$`, 's').exec(path);
  if (match !== null) {
    for (const [i, name] of relaxed.variables.entries()) {
      const value = match[i + 1];
      const requirement = route.requirements[name];
      if (value !== undefined && requirement !== undefined && !new RegExp(`^(?:${requirement})$`, 's').test(value)) {
        return ['almost', `Requirement for "${name}" does not match (${requirement}).`];
      }
    }
  }
  return ['none', `Path "${route.path}" does not match.`];
}
