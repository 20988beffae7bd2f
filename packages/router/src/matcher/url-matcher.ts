import { decodePath, trimTrailingSlashes } from '../internal/decode-path.js';
import type { Route } from '../route/route.js';
import type { RouteCollection } from '../route/route-collection.js';
import { candidateOf, type Candidate } from './candidate.js';
import type { MatchContext, MatchResult, RouteMatch, TrailingSlashMode } from './match-result.js';
import { SegmentTreeBuilder, type TreeNode } from './segment-tree.js';

/** One matching pass over one path: its inputs and what the rejected routes left behind. */
interface Pass {
  readonly kind: 'pass';
  readonly path: string;
  readonly trimmed: string;
  readonly requestSlash: boolean;
  readonly method: string;
  /** GET for HEAD. */
  readonly canonical: string;
  readonly scheme: string;
  readonly host: string;
  /** Start/end offsets of the tree parameters on the current branch. */
  readonly offsets: number[];
  allow: string[] | null;
  allowSchemes: string[] | null;
  /** Some route's path matched (whatever rejected it afterwards). */
  touched: boolean;
}

/** A GET/HEAD request reached a GET-capable route that differs only by its trailing slash: stop and retry the toggled path. */
const STOP = Symbol('stop');
type Outcome = RouteMatch | typeof STOP | undefined;

/**
 * The compiled matcher. Static paths (no parameter) sit in a map keyed by their slash-trimmed
 * path, unless a dynamic route declared before them could match them (then they join the tree, so
 * they cannot jump ahead). Dynamic routes sit in an ordered segment tree. Results follow the
 * reference's redirectable compiled matcher: first route in declaration order wins; HEAD matches
 * GET routes; 405 lists the union of allowed methods; a GET-capable route that matches after
 * toggling the trailing slash answers with a redirect (ruling 5).
 *
 * Stateless per request: `match` keeps everything it needs in a local pass object.
 */
export class UrlMatcher {
  readonly #static = new Map<string, Candidate[]>();
  readonly #tree: TreeNode;
  readonly #mode: TrailingSlashMode;
  /** Whether a slash-toggled retry can find something the first pass did not even touch. */
  readonly #retryMayReachNewRoutes: boolean;

  constructor(routes: RouteCollection | Iterable<Route>, options: { trailingSlash?: TrailingSlashMode } = {}) {
    this.#mode = options.trailingSlash ?? 'redirect';
    const builder = new SegmentTreeBuilder();
    const dynamicRegexes: RegExp[] = [];
    let index = 0;
    for (const route of routes) {
      const candidate = candidateOf(route, index++);
      const text = route.compiled.core.staticText;
      if (text !== null) {
        const key = trimTrailingSlashes(route.path);
        const shadowed = dynamicRegexes.some((regex) => regex.test(key) || regex.test(`${key}/`));
        if (!shadowed) {
          const list = this.#static.get(key);
          if (list === undefined) this.#static.set(key, [candidate]);
          else list.push(candidate);
          continue;
        }
      }
      dynamicRegexes.push(route.compiled.regex);
      builder.add(candidate);
    }
    this.#tree = builder.build();
    this.#retryMayReachNewRoutes = builder.opaqueCount > 0 || builder.hasEmptySegment;
  }

  /**
   * Matches a raw (percent-encoded) path. Throws `MalformedPathError` for bad percent-encoding.
   * Never throws for a miss: misses are the most common request and exceptions are not cheap.
   */
  match(rawPath: string, context: MatchContext): MatchResult {
    const first = this.#pass(rawPath, context, context.scheme);
    if (first.kind === 'match') return first;
    if (first.allow !== null) return { kind: 'method-not-allowed', allowedMethods: first.allow };
    if (this.#mode !== 'redirect' || (context.method !== 'GET' && context.method !== 'HEAD')) {
      return { kind: 'not-found', path: rawPath };
    }
    if (first.allowSchemes !== null) return this.#redirectScheme(rawPath, context, first.allowSchemes[0]!);
    const trimmed = trimTrailingSlashes(rawPath);
    if (trimmed === '/') return { kind: 'not-found', path: rawPath };
    const toggled = trimmed === rawPath ? `${rawPath}/` : trimmed;
    // Nothing matched the path at all: with plain segments the toggled path cannot match either.
    if (!first.touched && !this.#retryMayReachNewRoutes && !rawPath.endsWith('//')) return { kind: 'not-found', path: toggled };
    const retry = this.#pass(toggled, context, context.scheme);
    if (retry.kind === 'match') return { kind: 'redirect', route: retry.route, params: retry.params, path: toggled, scheme: null };
    if (retry.allowSchemes !== null) return this.#redirectScheme(toggled, context, retry.allowSchemes[0]!);
    return { kind: 'not-found', path: toggled };
  }

  #redirectScheme(rawPath: string, context: MatchContext, scheme: string): MatchResult {
    const result = this.#pass(rawPath, context, scheme);
    if (result.kind === 'match') return { kind: 'redirect', route: result.route, params: result.params, path: rawPath, scheme };
    return { kind: 'not-found', path: rawPath };
  }

  #pass(rawPath: string, context: MatchContext, scheme: string): RouteMatch | Pass {
    const path = decodePath(rawPath);
    const trimmed = trimTrailingSlashes(path);
    const method = context.method;
    const pass: Pass = {
      kind: 'pass',
      path,
      trimmed,
      requestSlash: trimmed !== path,
      method,
      canonical: method === 'HEAD' ? 'GET' : method,
      scheme,
      host: context.host,
      offsets: [],
      allow: null,
      allowSchemes: null,
      touched: false,
    };
    // Keyed by the trimmed path, but like a route's own `…/?$` expression only one trailing slash is accepted.
    const extra = path.length - trimmed.length;
    const statics = extra === 0 || (extra === 1 && trimmed !== '/') ? this.#static.get(trimmed) : undefined;
    if (statics !== undefined) {
      for (const candidate of statics) {
        const outcome = this.#check(candidate, pass, null);
        if (outcome === STOP) return stopped(pass);
        if (outcome !== undefined) return outcome;
      }
    }
    if (path.charCodeAt(0) === 47) {
      const outcome = this.#walk(this.#tree, 0, pass, 0);
      if (outcome === STOP) return stopped(pass);
      if (outcome !== undefined) return outcome;
    }
    return pass;
  }

  /** Depth-first over the tree from `node`; `pos` is the offset of the `/` before the next segment (or the end). */
  #walk(node: TreeNode, pos: number, pass: Pass, depth: number): Outcome {
    const path = pass.path;
    const length = path.length;
    let end = -1;
    let segment = '';
    for (const item of node.items) {
      switch (item.kind) {
        case 'literals': {
          if (pos >= length) break;
          if (end < 0) [end, segment] = segmentAt(path, pos);
          const child = item.children.get(segment);
          if (child === undefined) break;
          const outcome = this.#walk(child, end, pass, depth);
          if (outcome !== undefined) return outcome;
          break;
        }
        case 'param': {
          if (pos >= length) break;
          if (end < 0) [end, segment] = segmentAt(path, pos);
          if (segment === '' || (item.test !== null && !item.test.test(segment))) break;
          pass.offsets[depth * 2] = pos + 1;
          pass.offsets[depth * 2 + 1] = end;
          const outcome = this.#walk(item.child, end, pass, depth + 1);
          if (outcome !== undefined) return outcome;
          break;
        }
        case 'end': {
          if (pos < length - 1) break;
          for (const candidate of item.candidates) {
            const outcome = this.#check(candidate, pass, null);
            if (outcome !== undefined) return outcome;
          }
          break;
        }
        case 'opaque': {
          const match = item.candidate.regex.exec(path);
          if (match === null) break;
          const outcome = this.#check(item.candidate, pass, match);
          if (outcome !== undefined) return outcome;
          break;
        }
      }
    }
    return undefined;
  }

  /**
   * The reference's per-route checks once the path matched, in its order: host, trailing slash,
   * scheme, method. `match` is the route's own expression result for opaque routes, `null` for
   * static and tree routes (their parameters are in `pass.offsets`).
   */
  #check(candidate: Candidate, pass: Pass, match: RegExpExecArray | null): Outcome {
    pass.touched = true;
    let hostMatch: RegExpExecArray | null = null;
    if (candidate.hostRegex !== null) {
      hostMatch = candidate.hostRegex.exec(pass.host);
      if (hostMatch === null) return undefined;
    }
    let trailingVar = pass.requestSlash && candidate.hasTrailingVar;
    if (trailingVar && match !== null) {
      // A trailing parameter may keep the slash (requirement `.+`); otherwise judge the trimmed path.
      const last = match[candidate.pathVariables.length];
      if (candidate.hasTrailingSlash || last === undefined || !last.endsWith('/')) {
        const trimmedMatch = candidate.regex.exec(pass.trimmed);
        if (trimmedMatch !== null) {
          if (candidate.hasTrailingSlash) match = trimmedMatch;
          else trailingVar = false;
        }
      }
    } else if (trailingVar && !candidate.hasTrailingSlash) {
      trailingVar = false;
    }
    if (this.#mode !== 'ignore' && pass.path !== '/' && !trailingVar && candidate.hasTrailingSlash !== pass.requestSlash) {
      if (this.#mode === 'redirect' && pass.canonical === 'GET' && candidate.acceptsGet) return STOP;
      return undefined;
    }
    if (candidate.schemes !== null && !candidate.schemes.has(pass.scheme)) {
      pass.allowSchemes = union(pass.allowSchemes, candidate.schemeList);
      return undefined;
    }
    if (candidate.methods !== null && !candidate.methods.has(pass.canonical) && !candidate.methods.has(pass.method)) {
      pass.allow = union(pass.allow, candidate.methodList);
      return undefined;
    }
    return { kind: 'match', route: candidate.route, params: paramsOf(candidate, pass, match, hostMatch) };
  }
}

function segmentAt(path: string, pos: number): [number, string] {
  let end = path.indexOf('/', pos + 1);
  if (end < 0) end = path.length;
  return [end, path.slice(pos + 1, end)];
}

/** The reference's "return with allowed methods and schemes cleared": a slash redirect takes over. */
function stopped(pass: Pass): Pass {
  pass.allow = null;
  pass.allowSchemes = null;
  return pass;
}

function union(into: string[] | null, values: readonly string[]): string[] {
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
  const params: Record<string, unknown> = candidate.hasDefaults ? { ...candidate.defaults } : {};
  const names = candidate.pathVariables;
  if (match !== null) {
    for (let i = 0; i < names.length; i++) {
      const value = match[i + 1];
      if (value !== undefined) params[names[i]!] = value;
    }
  } else {
    const offsets = pass.offsets;
    for (let i = 0; i < names.length; i++) params[names[i]!] = pass.path.slice(offsets[i * 2], offsets[i * 2 + 1]);
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
