import { decodePath, trimTrailingSlashes } from '../internal/decode-path.js';
import type { Route } from '../route/route.js';
import type { RouteCollection } from '../route/route-collection.js';
import { candidateOf, type Candidate } from './candidate.js';
import { Pass, STOP, stop } from './pass.js';
import { check } from './route-check.js';
import { compileTree, type QuickWalk, type TreeMatcher } from './tree-compiler.js';
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
import { SegmentTreeBuilder, type TreeNode } from './segment-tree.js';

export interface UrlMatcherOptions {
  trailingSlash?: TrailingSlashMode;
  /** Compile the tree to JavaScript (default); `false` walks it as data (same answers, slower). */
  generateCode?: boolean;
}

/**
 * The compiled matcher. Static paths (no parameter) sit in a map keyed by their slash-trimmed
 * path, unless a dynamic route declared before them could match them (then they join the tree, so
 * they cannot jump ahead). Dynamic routes sit in an ordered segment tree (see segment-tree.ts).
 * Results follow the reference's redirectable compiled matcher: first route in declaration order
 * wins; HEAD matches GET routes; 405 lists the union of allowed methods; a GET-capable route that
 * matches after toggling the trailing slash answers with a redirect (ruling 5).
 *
 * Stateless per request. Most requests are answered by a walk of the tree without a pass object;
 * the others keep what they need in a local pass object.
 */
export class UrlMatcher {
  /**
   * Static routes by path. `candidates`: the routes whose slash-trimmed path this is, in order.
   * `answers`: for the routes whose exact path this is, method → the finished result when it
   * depends on nothing but path and method (no host, no scheme restriction); those results are
   * shared between requests (their params are frozen). See `StaticAnswers`.
   */
  readonly #static = new Map<string, StaticEntry>();
  readonly #tree: TreeNode;
  readonly #matchTree: TreeMatcher;
  readonly #quickWalk: QuickWalk;
  readonly #mode: TrailingSlashMode;
  /** Whether a slash-toggled retry can find something the first pass did not even touch. */
  readonly #retryMayReachNewRoutes: boolean;

  constructor(routes: RouteCollection | Iterable<Route>, options: UrlMatcherOptions = {}) {
    this.#mode = options.trailingSlash ?? 'redirect';
    const builder = new SegmentTreeBuilder();
    const dynamicRegexes: RegExp[] = [];
    const methods = new Set(['GET', 'HEAD']);
    let index = 0;
    for (const route of routes) {
      const candidate = candidateOf(route, index++);
      for (const method of route.methods) methods.add(method);
      // The path as requests spell it: the pattern's text with its escapes (`\\:`) resolved.
      const text = route.compiled.path.staticText;
      if (text !== null) {
        const key = trimTrailingSlashes(text);
        const shadowed = dynamicRegexes.some((regex) => regex.test(key) || regex.test(`${key}/`));
        // A path ending in several slashes (`/a//`) is not its trimmed path plus an optional slash: tree.
        const plainEnding = text === key || text === `${key}/`;
        if (!shadowed && plainEnding) {
          staticEntry(this.#static, key).candidates.push(candidate);
          continue;
        }
      }
      dynamicRegexes.push(route.compiled.regex);
      builder.add(candidate);
    }
    this.#tree = builder.build();
    const compiled = compileTree(this.#tree, this.#mode, options.generateCode ?? true);
    this.#matchTree = compiled.match;
    this.#quickWalk = compiled.quickWalk;
    this.#retryMayReachNewRoutes = builder.opaqueCount > 0 || builder.hasEmptySegment;
    this.#precomputeStaticAnswers(methods);
  }

  /**
   * Matches a raw (percent-encoded) path. Throws `MalformedPathError` for bad percent-encoding.
   * Never throws for a miss: misses are the most common request and exceptions are not cheap.
   */
  match(rawPath: string, context: MatchContext): MatchResult {
    const entry = this.#static.get(rawPath);
    if (entry !== undefined) {
      if (entry.answers !== null) {
        const answer = entry.answers.for(context.method);
        if (answer !== undefined) return answer;
      }
      return this.#matchWithPass(rawPath, context, entry, false);
    }
    if (rawPath.charCodeAt(0) !== 47 || rawPath.charCodeAt(rawPath.length - 1) === 47 || rawPath.includes('%')) {
      return this.#matchWithPass(rawPath, context, entry, false);
    }
    // No static route has this path (nor, without a trailing slash, its trimmed form) and it is its
    // own decoded form: only the tree can answer, and the quick walk does for hits and for paths
    // no route's path matches, without a pass object.
    const found = this.#quickWalk(rawPath, context.method);
    if (found === undefined) {
      // The toggled path cannot reach a route either, unless opaque routes or empty segments exist.
      if (!this.#retryMayReachNewRoutes) return this.#notFound(rawPath, context.method);
      return this.#matchWithPass(rawPath, context, entry, false);
    }
    if (found !== null && found !== STOP) return found;
    // Routes' paths matched but each rejected the request (a 405 is likely: collect the allowed
    // lists at once), or a route needs more than the quick walk judges: walk with a pass.
    return this.#matchWithPass(rawPath, context, entry, found === null);
  }

  /**
   * The full first pass with a pass object, then what follows a first pass that found no route.
   * `collect`: build the allowed method and scheme lists during the first pass already.
   */
  #matchWithPass(rawPath: string, context: MatchContext, entry: StaticEntry | undefined, collect: boolean): MatchResult {
    const first = this.#newPass(rawPath, context.method, context.scheme, context.host);
    if (collect) first.startCollecting();
    const found = this.#pass(first, entry);
    if (found !== undefined) return found;
    return this.#afterFirstPass(rawPath, context, first);
  }

  /**
   * What follows a first pass that found no route: 405, the slash and scheme retries, 404. Kept
   * out of `match` so that the hit path stays small enough for the JIT to inline it whole.
   */
  #afterFirstPass(rawPath: string, context: MatchContext, first: Pass): MatchResult {
    if (first.allow !== null) return methodNotAllowedMatch(first.allow);
    if (this.#mode !== 'redirect' || (context.method !== 'GET' && context.method !== 'HEAD')) {
      return notFoundMatch(rawPath);
    }
    if (first.allowSchemes !== null) return this.#redirectScheme(rawPath, context, first.allowSchemes[0]!);
    const trimmed = trimTrailingSlashes(rawPath);
    if (trimmed === '/') return notFoundMatch(rawPath);
    const toggled = trimmed === rawPath ? `${rawPath}/` : trimmed;
    // Nothing matched the path at all: with plain segments the toggled path cannot match either.
    if (!first.touched && !this.#retryMayReachNewRoutes && !rawPath.endsWith('//')) return notFoundMatch(toggled);
    const retry = this.#newPass(toggled, context.method, context.scheme, context.host);
    const found = this.#pass(retry);
    if (found !== undefined) return redirectMatch(found.route, found.params, toggled, null);
    if (retry.allowSchemes !== null) return this.#redirectScheme(toggled, context, retry.allowSchemes[0]!);
    return notFoundMatch(toggled);
  }

  /** The answer for a path no route can match, toggled or not: the message names the path the retry would have tried. */
  #notFound(rawPath: string, method: string): MatchResult {
    if (this.#mode !== 'redirect' || (method !== 'GET' && method !== 'HEAD')) return notFoundMatch(rawPath);
    const trimmed = trimTrailingSlashes(rawPath);
    if (trimmed === '/') return notFoundMatch(rawPath);
    return notFoundMatch(trimmed === rawPath ? `${rawPath}/` : trimmed);
  }

  #redirectScheme(rawPath: string, context: MatchContext, scheme: string): MatchResult {
    const found = this.#pass(this.#newPass(rawPath, context.method, scheme, context.host));
    if (found !== undefined) return redirectMatch(found.route, found.params, rawPath, scheme);
    return notFoundMatch(rawPath);
  }

  /** A pass over the decoded path (throws `MalformedPathError` for bad percent-encoding). */
  #newPass(rawPath: string, method: string, scheme: string, host: string): Pass {
    return new Pass(decodePath(rawPath), rawPath, method, scheme, host, this.#mode);
  }

  /**
   * One pass over the static map then the tree: the route found, or `undefined` with what the
   * rejected routes left behind in `pass`. Rejections by method or scheme only raise a flag; when
   * the pass ends without a route and a flag is up, a second, collecting pass builds the allowed
   * lists (so a hit never allocates them). Returning only results or `undefined` (never the pass)
   * keeps the caller's checks monomorphic whatever mix of hits, 404s and 405s the server sees.
   *
   * A pass already collecting (see `match`) needs no second run.
   *
   * `rawEntry`: the static entry `match` already looked up for the raw path (`undefined` = none),
   * or `null` when it did not look; reused when decoding left the path unchanged.
   */
  #pass(pass: Pass, rawEntry: StaticEntry | undefined | null = null): RouteMatch | undefined {
    const known = rawEntry !== null && pass.path === pass.rawPath;
    const found = this.#run(pass, known, rawEntry);
    if (found !== undefined || pass.collect || (!pass.methodMismatch && !pass.schemeMismatch)) return found;
    return this.#collect(pass, known, rawEntry);
  }

  /** The second pass that builds the allowed method and scheme lists (out of line: rare). */
  #collect(pass: Pass, known: boolean, rawEntry: StaticEntry | undefined | null): RouteMatch | undefined {
    pass.startCollecting();
    return this.#run(pass, known, rawEntry);
  }

  #run(pass: Pass, rawEntryKnown: boolean, rawEntry: StaticEntry | undefined | null): RouteMatch | undefined {
    const path = pass.path;
    // Keyed by the trimmed path, but like a route's own `…/?$` expression only one trailing slash is accepted.
    const extra = path.length - pass.trimmed.length;
    let statics: Candidate[] | undefined;
    if (extra === 0 && rawEntryKnown) statics = rawEntry?.candidates;
    else if (extra === 0 || (extra === 1 && pass.trimmed !== '/')) statics = this.#static.get(pass.trimmed)?.candidates;
    if (statics !== undefined) {
      for (let i = 0; i < statics.length; i++) {
        const outcome = check(statics[i]!, pass, null);
        if (outcome === STOP) return stop(pass);
        if (outcome !== undefined) return outcome;
      }
    }
    if (path.charCodeAt(0) === 47) {
      const outcome = this.#matchTree(path, 0, pass);
      if (outcome === STOP) return stop(pass);
      if (outcome !== undefined) return outcome;
    }
    return undefined;
  }

  /**
   * Runs the static check for each exact static route path and each known method once, keeping
   * the results that cannot depend on the request's host or scheme.
   */
  #precomputeStaticAnswers(methods: ReadonlySet<string>): void {
    for (const { candidates } of [...this.#static.values()]) {
      for (const path of new Set(candidates.map((c) => c.route.compiled.path.staticText!))) {
        if (path.includes('%') || decodePath(path) !== path) continue;
        const answers = new Map<string, RouteMatch>();
        for (const method of methods) {
          const answer = this.#hostAndSchemeFreeAnswer(candidates, path, method);
          if (answer !== null) answers.set(method, answer);
        }
        if (answers.size > 0) staticEntry(this.#static, path).answers = new StaticAnswers(answers);
      }
    }
  }

  #hostAndSchemeFreeAnswer(candidates: readonly Candidate[], path: string, method: string): RouteMatch | null {
    for (const candidate of candidates) {
      if (candidate.hostRegex !== null || candidate.schemes !== null) return null;
      const pass = new Pass(path, path, method, 'http', '', this.#mode);
      const outcome = check(candidate, pass, null);
      if (outcome === STOP) return null;
      if (outcome !== undefined) return routeMatch(outcome.route, Object.freeze(outcome.params));
    }
    return null;
  }
}

interface StaticEntry {
  readonly candidates: Candidate[];
  answers: StaticAnswers | null;
}

/**
 * The finished results of one exact static path, by method. The common methods each have a field
 * found by string comparisons (pointer compares for the interned method strings servers pass), so
 * a static hit costs one map lookup (the path): with a second `Map.get` by method, static hits
 * took ~1.3-1.4x as long. Other methods are looked up in the full map.
 */
class StaticAnswers {
  readonly #get: RouteMatch | undefined;
  readonly #head: RouteMatch | undefined;
  readonly #post: RouteMatch | undefined;
  readonly #put: RouteMatch | undefined;
  readonly #delete: RouteMatch | undefined;
  readonly #patch: RouteMatch | undefined;
  readonly #all: ReadonlyMap<string, RouteMatch>;

  constructor(byMethod: ReadonlyMap<string, RouteMatch>) {
    this.#get = byMethod.get('GET');
    this.#head = byMethod.get('HEAD');
    this.#post = byMethod.get('POST');
    this.#put = byMethod.get('PUT');
    this.#delete = byMethod.get('DELETE');
    this.#patch = byMethod.get('PATCH');
    this.#all = byMethod;
  }

  for(method: string): RouteMatch | undefined {
    switch (method) {
      case 'GET':
        return this.#get;
      case 'HEAD':
        return this.#head;
      case 'POST':
        return this.#post;
      case 'PUT':
        return this.#put;
      case 'DELETE':
        return this.#delete;
      case 'PATCH':
        return this.#patch;
      default:
        return this.#all.get(method);
    }
  }
}

function staticEntry(map: Map<string, StaticEntry>, path: string): StaticEntry {
  let entry = map.get(path);
  if (entry === undefined) map.set(path, (entry = { candidates: [], answers: null }));
  return entry;
}
