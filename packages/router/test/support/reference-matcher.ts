import type { Route, TrailingSlashMode } from '../../src/index.js';
import type { PlainResult } from './match.js';

/**
 * The reference's matching rules written as the plainest possible loop: every route in order, its
 * own expression, then the redirectable matcher's outer logic. The compiled matcher must agree
 * with it on every table and path (property tests).
 */
export function referenceMatch(
  routes: readonly Route[],
  rawPath: string,
  method: string,
  host: string,
  scheme: string,
  mode: TrailingSlashMode = 'redirect',
): PlainResult {
  const first = loop(routes, rawPath, method, host, scheme, mode);
  if ('route' in first) return first;
  if (first.allow.length > 0) return { kind: 'method-not-allowed', allowedMethods: first.allow };
  if (mode !== 'redirect' || (method !== 'GET' && method !== 'HEAD')) return { kind: 'not-found', path: rawPath };
  const schemeRedirect = (path: string, to: string): PlainResult => {
    const again = loop(routes, path, method, host, to, mode);
    return 'route' in again ? { ...again, kind: 'redirect', path, scheme: to } : { kind: 'not-found', path };
  };
  if (first.schemes.length > 0) return schemeRedirect(rawPath, first.schemes[0]!);
  const trimmed = rawPath.replace(/\/+$/, '') || '/';
  if (trimmed === '/') return { kind: 'not-found', path: rawPath };
  const toggled = trimmed === rawPath ? `${rawPath}/` : trimmed;
  const retry = loop(routes, toggled, method, host, scheme, mode);
  if ('route' in retry) return { ...retry, kind: 'redirect', path: toggled, scheme: null };
  if (retry.schemes.length > 0) return schemeRedirect(toggled, retry.schemes[0]!);
  return { kind: 'not-found', path: toggled };
}

type LoopResult = { kind: 'match'; route: string; params: Record<string, unknown> } | { allow: string[]; schemes: string[] };

function loop(routes: readonly Route[], rawPath: string, method: string, host: string, scheme: string, mode: TrailingSlashMode): LoopResult {
  const path = decodeURIComponent(rawPath) || '/';
  const trimmed = path.replace(/\/+$/, '') || '/';
  const canonical = method === 'HEAD' ? 'GET' : method;
  const allow: string[] = [];
  const schemes: string[] = [];
  for (const route of routes) {
    const c = route.compiled;
    let m = c.regex.exec(path);
    if (m === null) continue;
    let h: RegExpExecArray | null = null;
    if (c.hostRegex !== null) {
      h = c.hostRegex.exec(host);
      if (h === null) continue;
    }
    let trailingVar = trimmed !== path && c.hasTrailingVar;
    const last = m[c.core.variables.length];
    if (trailingVar && (c.hasTrailingSlash || last === undefined || (last !== '' && !last.endsWith('/')))) {
      const n = c.regex.exec(trimmed);
      if (n !== null) {
        if (c.hasTrailingSlash) m = n;
        else trailingVar = false;
      }
    }
    if (mode !== 'ignore' && path !== '/' && !trailingVar && c.hasTrailingSlash === (trimmed === path)) {
      if (mode === 'redirect' && canonical === 'GET' && (route.methods.length === 0 || route.methods.includes('GET'))) {
        return { allow: [], schemes: [] };
      }
      continue;
    }
    if (route.schemes.length > 0 && !route.schemes.includes(scheme)) {
      for (const s of route.schemes) if (!schemes.includes(s)) schemes.push(s);
      continue;
    }
    if (route.methods.length > 0 && !route.methods.includes(canonical) && !route.methods.includes(method)) {
      for (const x of route.methods) if (!allow.includes(x)) allow.push(x);
      continue;
    }
    const params: Record<string, unknown> = { ...route.defaults };
    c.core.variables.forEach((name, i) => {
      if (m![i + 1] !== undefined) params[name] = m![i + 1];
    });
    c.host?.variables.forEach((name, i) => {
      if (h![i + 1] !== undefined) params[name] = h![i + 1];
    });
    return { kind: 'match', route: route.name, params };
  }
  return { allow, schemes };
}
