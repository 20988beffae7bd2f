import type { Candidate } from './candidate.js';
import { routeMatch } from './match-result.js';
import { STOP, type Outcome, type Pass } from './pass.js';

/**
 * The reference's per-route checks once the path matched, in its order: host, trailing slash,
 * scheme, method. `match` is the route's own expression result for opaque routes, `null` for
 * static and tree routes (their parameters are in `pass.offsets`).
 */
export function check(candidate: Candidate, pass: Pass, match: RegExpExecArray | null): Outcome {
  pass.touched = true;
  let hostMatch: RegExpExecArray | null = null;
  if (candidate.hostRegex !== null) {
    hostMatch = candidate.hostRegex.exec(pass.host);
    if (hostMatch === null) return undefined;
  }
  let trailingVar = pass.requestSlash && candidate.hasTrailingVar;
  if (trailingVar && match !== null) {
    // A trailing parameter may keep the slash (requirement `.+`); otherwise judge the trimmed path.
    // An empty capture counts as keeping it (`/en-en/` for `/en-en{/:b}` with `.*` gives b = '').
    const last = match[candidate.pathVariables.length];
    if (candidate.hasTrailingSlash || last === undefined || (last !== '' && !last.endsWith('/'))) {
      const trimmedMatch = candidate.regex.exec(pass.trimmed);
      if (trimmedMatch !== null) {
        if (candidate.hasTrailingSlash) match = trimmedMatch;
        else trailingVar = false;
      }
    }
  } else if (trailingVar && !candidate.hasTrailingSlash) {
    trailingVar = false;
  }
  if (pass.mode !== 'ignore' && !trailingVar && candidate.hasTrailingSlash !== pass.requestSlash && pass.path !== '/') {
    if (pass.mode === 'redirect' && pass.canonical === 'GET' && candidate.acceptsGet) return STOP;
    return undefined;
  }
  if (candidate.schemes !== null && !candidate.schemes.has(pass.scheme)) {
    pass.schemeMismatch = true;
    if (pass.collect) pass.allowSchemes = union(pass.allowSchemes, candidate.schemeList);
    return undefined;
  }
  if (candidate.methods !== null && !candidate.methods.has(pass.canonical) && !candidate.methods.has(pass.method)) {
    pass.methodMismatch = true;
    if (pass.collect) pass.allow = union(pass.allow, candidate.methodList);
    return undefined;
  }
  return routeMatch(candidate.route, paramsOf(candidate, pass, match, hostMatch));
}

export function union(into: string[] | null, values: readonly string[]): string[] {
  if (into === null) return [...values];
  for (const value of values) if (!into.includes(value)) into.push(value);
  return into;
}

function paramsOf(
  candidate: Candidate,
  pass: Pass,
  match: RegExpExecArray | null,
  hostMatch: RegExpExecArray | null,
): Record<string, unknown> {
  let params: Record<string, unknown>;
  const names = candidate.pathVariables;
  if (match !== null) {
    params = candidate.hasDefaults ? { ...candidate.defaults } : {};
    for (let i = 0; i < names.length; i++) {
      const value = match[i + 1];
      if (value !== undefined) params[names[i]!] = value;
    }
  } else {
    params = candidate.buildParams(pass.path, pass.offsets, candidate.defaults);
  }
  if (hostMatch !== null) {
    const hostNames = candidate.hostVariables;
    for (let i = 0; i < hostNames.length; i++) {
      const value = hostMatch[i + 1];
      if (value !== undefined) params[hostNames[i]!] = value;
    }
  }
  return params;
}

