import { decodePath, trimTrailingSlashes } from '../internal/decode-path.js';
import { compilePattern } from '../route/compiled-pattern.js';
import type { Route } from '../route/route.js';
import type { MatchContext } from '../matcher/match-result.js';
import { trailingParameterMatch } from '../matcher/reference-loop.js';

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
 * did or did not match. Slow on purpose — one expression per route — and only built when asked.
 * Routes after the first full match are reported as not tried.
 */
export function traceRoutes(routes: Iterable<Route>, rawPath: string, context: MatchContext): RouteTrace[] {
  const traces: RouteTrace[] = [];
  let path: string;
  try {
    path = decodePath(rawPath);
  } catch (error) {
    for (const route of routes) traces.push({ name: route.name, path: route.path, level: 'none', reason: (error as Error).message });
    return traces;
  }
  const trimmed = trimTrailingSlashes(path);
  const canonical = context.method === 'HEAD' ? 'GET' : context.method;
  let matched = false;
  for (const route of routes) {
    const trace = (level: RouteTraceLevel, reason: string) => traces.push({ name: route.name, path: route.path, level, reason });
    if (matched) {
      trace('none', 'Not tried: an earlier route matched.');
      continue;
    }
    const compiled = route.compiled;
    const match = compiled.regex.exec(path);
    if (match === null) {
      trace(...pathMismatch(route, path));
      continue;
    }
    if (compiled.hostRegex !== null && !compiled.hostRegex.test(context.host)) {
      trace('almost', `Host "${context.host}" does not match the requirement ("${route.host}").`);
      continue;
    }
    // The matcher's own slash rule (reference-loop.ts): a trailing parameter may keep the slash.
    const kept = trimmed !== path && compiled.hasTrailingVar ? trailingParameterMatch(route, match, path) : null;
    if (kept === null && path !== '/' && compiled.hasTrailingSlash === (trimmed === path)) {
      trace(
        'almost',
        `The trailing slash differs (route ${compiled.hasTrailingSlash ? 'has' : 'has none'}); a GET request is redirected to the toggled path.`,
      );
      continue;
    }
    if (route.schemes.length > 0 && !route.schemes.includes(context.scheme)) {
      trace('almost', `Scheme "${context.scheme}" does not match any of the required schemes (${route.schemes.join(', ')}).`);
      continue;
    }
    if (route.methods.length > 0 && !route.methods.includes(canonical) && !route.methods.includes(context.method)) {
      trace('almost', `Method "${context.method}" does not match any of the required methods (${route.methods.join(', ')}).`);
      continue;
    }
    trace('match', 'Route matches!');
    matched = true;
  }
  return traces;
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
