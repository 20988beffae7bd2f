import { decodePath, trimTrailingSlashes } from '../internal/decode-path.js';
import type { Route } from '../route/route.js';
import type { RouteCollection } from '../route/route-collection.js';
import { candidateOf, type Candidate } from './candidate.js';
import type { MatchContext, MatchResult, RouteMatch, TrailingSlashMode } from './match-result.js';
import { END, LITERALS, OPAQUE, SegmentTreeBuilder, type TreeNode } from './segment-tree.js';

/** One matching pass over one path: its inputs and what the rejected routes left behind. */
class Pass {
  readonly kind = 'pass';
  readonly trimmed: string;
  readonly requestSlash: boolean;
  /** GET for HEAD. */
  readonly canonical: string;
  /** Start/end offsets of the tree parameters on the current branch. */
  readonly offsets: number[] = [];
  /** A route matched but for its method / scheme; the lists are only built by a collecting pass. */
  methodMismatch = false;
  schemeMismatch = false;
  allow: string[] | null = null;
  allowSchemes: string[] | null = null;
  /** Some route's path matched (whatever rejected it afterwards). */
  touched = false;

  constructor(
    readonly path: string,
    readonly method: string,
    readonly scheme: string,
    readonly host: string,
    readonly mode: TrailingSlashMode,
    /** Build the allowed method and scheme lists (only needed once a pass found no route). */
    readonly collect: boolean,
  ) {
    this.trimmed = trimTrailingSlashes(path);
    this.requestSlash = this.trimmed !== path;
    this.canonical = method === 'HEAD' ? 'GET' : method;
  }
}

/** A GET/HEAD request reached a GET-capable route that differs only by its trailing slash: stop and retry the toggled path. */
const STOP = 1;
type Outcome = RouteMatch | typeof STOP | undefined;

/**
 * The compiled matcher. Static paths (no parameter) sit in a map keyed by their slash-trimmed
 * path, unless a dynamic route declared before them could match them (then they join the tree, so
 * they cannot jump ahead). Dynamic routes sit in an ordered segment tree (see segment-tree.ts).
 * Results follow the reference's redirectable compiled matcher: first route in declaration order
 * wins; HEAD matches GET routes; 405 lists the union of allowed methods; a GET-capable route that
 * matches after toggling the trailing slash answers with a redirect (ruling 5).
 *
 * Stateless per request: `match` keeps everything it needs in a local pass object.
 */
export class UrlMatcher {
  /**
   * Static routes by path. `candidates`: the routes whose slash-trimmed path this is, in order.
   * `answers`: for the routes whose exact path this is, method → the finished result when it
   * depends on nothing but path and method (no host, no scheme restriction); those results are
   * frozen and shared between requests.
   */
  readonly #static = new Map<string, StaticEntry>();
  /**
   * First path segments any route can start with, or `null` when some route can start with
   * anything (a parameter first). A path outside this set is a miss without further work: the
   * common scanner request (`/wp-login.php`, `/.env`) costs one lookup.
   */
  readonly #firstSegments: FirstSegments | null;
  readonly #tree: TreeNode;
  readonly #mode: TrailingSlashMode;
  /** Whether a slash-toggled retry can find something the first pass did not even touch. */
  readonly #retryMayReachNewRoutes: boolean;

  constructor(routes: RouteCollection | Iterable<Route>, options: { trailingSlash?: TrailingSlashMode } = {}) {
    this.#mode = options.trailingSlash ?? 'redirect';
    const builder = new SegmentTreeBuilder();
    const dynamicRegexes: RegExp[] = [];
    const methods = new Set(['GET', 'HEAD']);
    let index = 0;
    for (const route of routes) {
      const candidate = candidateOf(route, index++);
      for (const method of route.methods) methods.add(method);
      const text = route.compiled.core.staticText;
      if (text !== null) {
        const key = trimTrailingSlashes(route.path);
        const shadowed = dynamicRegexes.some((regex) => regex.test(key) || regex.test(`${key}/`));
        if (!shadowed) {
          staticEntry(this.#static, key).candidates.push(candidate);
          continue;
        }
      }
      dynamicRegexes.push(route.compiled.regex);
      builder.add(candidate);
    }
    this.#tree = builder.build();
    this.#retryMayReachNewRoutes = builder.opaqueCount > 0 || builder.hasEmptySegment;
    this.#precomputeStaticAnswers(methods);
    this.#firstSegments = firstSegmentsOf(this.#tree, this.#static.keys());
  }

  /**
   * Matches a raw (percent-encoded) path. Throws `MalformedPathError` for bad percent-encoding.
   * Never throws for a miss: misses are the most common request and exceptions are not cheap.
   */
  match(rawPath: string, context: MatchContext): MatchResult {
    const entry = this.#static.get(rawPath);
    if (entry !== undefined && entry.answers !== null) {
      const answer = entry.answers.get(context.method);
      if (answer !== undefined) return answer;
    }
    if (entry === undefined && this.#firstSegments !== null && !startsWithAny(rawPath, this.#firstSegments) && !rawPath.includes('%')) {
      return this.#notFound(rawPath, context.method);
    }
    const first = this.#pass(rawPath, context.method, context.scheme, context.host, entry);
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
    const retry = this.#pass(toggled, context.method, context.scheme, context.host);
    if (retry.kind === 'match') return { kind: 'redirect', route: retry.route, params: retry.params, path: toggled, scheme: null };
    if (retry.allowSchemes !== null) return this.#redirectScheme(toggled, context, retry.allowSchemes[0]!);
    return { kind: 'not-found', path: toggled };
  }

  /** The answer for a path no route can match, toggled or not: the message names the path the retry would have tried. */
  #notFound(rawPath: string, method: string): MatchResult {
    if (this.#mode !== 'redirect' || (method !== 'GET' && method !== 'HEAD')) return { kind: 'not-found', path: rawPath };
    const trimmed = trimTrailingSlashes(rawPath);
    if (trimmed === '/') return { kind: 'not-found', path: rawPath };
    return { kind: 'not-found', path: trimmed === rawPath ? `${rawPath}/` : trimmed };
  }

  #redirectScheme(rawPath: string, context: MatchContext, scheme: string): MatchResult {
    const result = this.#pass(rawPath, context.method, scheme, context.host);
    if (result.kind === 'match') return { kind: 'redirect', route: result.route, params: result.params, path: rawPath, scheme };
    return { kind: 'not-found', path: rawPath };
  }

  /**
   * One pass over the static map then the tree. Rejections by method or scheme only raise a flag;
   * when the pass ends without a route and a flag is up, a second, collecting pass builds the
   * allowed lists (so a hit never allocates them).
   */
  /**
   * `rawEntry`: the static entry `match` already looked up for this raw path (`undefined` = none),
   * or `null` when it did not look; reused when decoding and trimming left the path unchanged.
   */
  #pass(rawPath: string, method: string, scheme: string, host: string, rawEntry: StaticEntry | undefined | null = null): RouteMatch | Pass {
    const path = decodePath(rawPath);
    const known = rawEntry !== null && path === rawPath;
    const first = this.#run(new Pass(path, method, scheme, host, this.#mode, false), known, rawEntry);
    if (first.kind === 'match' || (!first.methodMismatch && !first.schemeMismatch)) return first;
    return this.#run(new Pass(path, method, scheme, host, this.#mode, true), known, rawEntry);
  }

  #run(pass: Pass, rawEntryKnown: boolean, rawEntry: StaticEntry | undefined | null): RouteMatch | Pass {
    const path = pass.path;
    // Keyed by the trimmed path, but like a route's own `…/?$` expression only one trailing slash is accepted.
    const extra = path.length - pass.trimmed.length;
    let statics: Candidate[] | undefined;
    if (extra === 0 && rawEntryKnown) statics = rawEntry?.candidates;
    else if (extra === 0 || (extra === 1 && pass.trimmed !== '/')) statics = this.#static.get(pass.trimmed)?.candidates;
    if (statics !== undefined) {
      for (let i = 0; i < statics.length; i++) {
        const outcome = check(statics[i]!, pass, null);
        if (outcome === STOP) return stopped(pass);
        if (outcome !== undefined) return outcome;
      }
    }
    if (path.charCodeAt(0) === 47) {
      const outcome = walk(this.#tree, 0, pass, 0);
      if (outcome === STOP) return stopped(pass);
      if (outcome !== undefined) return outcome;
    }
    return pass;
  }

  /**
   * Runs the static check for each exact static route path and each known method once, keeping
   * the results that cannot depend on the request's host or scheme.
   */
  #precomputeStaticAnswers(methods: ReadonlySet<string>): void {
    for (const { candidates } of [...this.#static.values()]) {
      for (const path of new Set(candidates.map((c) => c.route.path))) {
        if (path.includes('%') || decodePath(path) !== path) continue;
        const answers = new Map<string, RouteMatch>();
        for (const method of methods) {
          const answer = this.#hostAndSchemeFreeAnswer(candidates, path, method);
          if (answer !== null) answers.set(method, answer);
        }
        if (answers.size > 0) staticEntry(this.#static, path).answers = answers;
      }
    }
  }

  #hostAndSchemeFreeAnswer(candidates: readonly Candidate[], path: string, method: string): RouteMatch | null {
    for (const candidate of candidates) {
      if (candidate.hostRegex !== null || candidate.schemes !== null) return null;
      const pass = new Pass(path, method, 'http', '', this.#mode, false);
      const outcome = check(candidate, pass, null);
      if (outcome === STOP) return null;
      if (outcome !== undefined) return Object.freeze({ ...outcome, params: Object.freeze(outcome.params) });
    }
    return null;
  }
}

/** Depth-first over the tree from `node`; `pos` is the offset of the `/` before the next segment (or the end). */
function walk(node: TreeNode, pos: number, pass: Pass, depth: number): Outcome {
  const path = pass.path;
  const length = path.length;
  const items = node.items;
  let end = -1;
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    const kind = item.kind;
    if (kind === END) {
      if (pos < length - 1) continue;
      const candidates = item.candidates!;
      for (let j = 0; j < candidates.length; j++) {
        const outcome = check(candidates[j]!, pass, null);
        if (outcome !== undefined) return outcome;
      }
      continue;
    }
    if (kind === OPAQUE) {
      const candidate = item.candidates![0]!;
      const match = candidate.regex.exec(path);
      if (match === null) continue;
      const outcome = check(candidate, pass, match);
      if (outcome !== undefined) return outcome;
      continue;
    }
    if (pos >= length) continue;
    if (end < 0) {
      end = path.indexOf('/', pos + 1);
      if (end < 0) end = length;
    }
    let child: TreeNode | undefined;
    if (kind === LITERALS) {
      const size = end - pos - 1;
      const texts = item.texts![size];
      if (texts !== undefined) {
        for (let j = 0; j < texts.length; j++) {
          if (segmentEquals(path, pos + 1, texts[j]!)) {
            child = item.nodes![size]![j];
            break;
          }
        }
      }
      if (child === undefined) continue;
      const outcome = walk(child, end, pass, depth);
      if (outcome !== undefined) return outcome;
      continue;
    }
    // PARAM: one non-empty segment, checked against its requirement when it has one.
    if (end === pos + 1) continue;
    if (item.test !== null && !item.test.test(path.slice(pos + 1, end))) continue;
    const offsets = pass.offsets;
    offsets[depth * 2] = pos + 1;
    offsets[depth * 2 + 1] = end;
    const outcome = walk(item.child!, end, pass, depth + 1);
    if (outcome !== undefined) return outcome;
  }
  return undefined;
}

/**
 * The reference's per-route checks once the path matched, in its order: host, trailing slash,
 * scheme, method. `match` is the route's own expression result for opaque routes, `null` for
 * static and tree routes (their parameters are in `pass.offsets`).
 */
function check(candidate: Candidate, pass: Pass, match: RegExpExecArray | null): Outcome {
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
  return { kind: 'match', route: candidate.route, params: paramsOf(candidate, pass, match, hostMatch) };
}

/** `path` holds `text` at `start` (same length known); char codes compared inline, cheaper than `startsWith`. */
function segmentEquals(path: string, start: number, text: string): boolean {
  for (let k = 0; k < text.length; k++) if (path.charCodeAt(start + k) !== text.charCodeAt(k)) return false;
  return true;
}

/** The reference's "return with allowed methods and schemes cleared": a slash redirect takes over. */
function stopped(pass: Pass): Pass {
  pass.allow = null;
  pass.allowSchemes = null;
  pass.methodMismatch = false;
  pass.schemeMismatch = false;
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

interface StaticEntry {
  readonly candidates: Candidate[];
  answers: ReadonlyMap<string, RouteMatch> | null;
}

function staticEntry(map: Map<string, StaticEntry>, path: string): StaticEntry {
  let entry = map.get(path);
  if (entry === undefined) map.set(path, (entry = { candidates: [], answers: null }));
  return entry;
}

/** The text between the leading `/` and the next one (`''` for `/`). */
function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return end < 0 ? path.slice(1) : path.slice(1, end);
}

/**
 * Every first segment a route can start with, or `null` when the tree's root has anything but
 * literal children (a parameter, an opaque route, the root route) so any first segment may match.
 */
function firstSegmentsOf(tree: TreeNode, staticPaths: Iterable<string>): FirstSegments | null {
  const segments = new Set<string>();
  for (const item of tree.items) {
    if (item.kind !== LITERALS) return null;
    for (const texts of item.texts!) for (const text of texts ?? []) segments.add(text);
  }
  for (const path of staticPaths) {
    if (path.charCodeAt(0) !== 47) return null;
    segments.add(firstSegment(path));
  }
  const byLength: string[][] = [];
  for (const segment of segments) (byLength[segment.length] ??= []).push(segment);
  return byLength;
}

/** First segments grouped by length: a path's first segment is compared only with those of its length. */
type FirstSegments = ReadonlyArray<readonly string[] | undefined>;

/** Whether the first segment of `path` is one of `segments`, compared in place (no slice). */
function startsWithAny(path: string, segments: FirstSegments): boolean {
  let end = path.indexOf('/', 1);
  if (end < 0) end = path.length;
  const sameLength = segments[end - 1];
  if (sameLength === undefined) return false;
  for (let i = 0; i < sameLength.length; i++) if (segmentEquals(path, 1, sameLength[i]!)) return true;
  return false;
}
