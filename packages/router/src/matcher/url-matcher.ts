import { decodePath, trimTrailingSlashes } from '../internal/decode-path.js';
import type { Route } from '../route/route.js';
import type { RouteCollection } from '../route/route-collection.js';
import { candidateOf } from './candidate.js';
import {
  emitMatcher,
  emitStaticLookup,
  Refusals,
  REFUSED,
  SlashToggled,
  type CollectingWalk,
  type StaticLookup,
  type Walk,
} from './matcher-emitter.js';
import {
  methodNotAllowedMatch,
  notFoundMatch,
  redirectMatch,
  routeMatch,
  type MatchContext,
  type RouteMatch,
  type MatchResult,
  type TrailingSlashMode,
} from './match-result.js';
import { referenceMatch } from './reference-loop.js';
import { SegmentTreeBuilder } from './segment-tree.js';

export interface UrlMatcherOptions {
  trailingSlash?: TrailingSlashMode;
  /** Generate the matcher's JavaScript (default); `false` matches with the reference loop (same answers, slower). */
  generateCode?: boolean;
}

/**
 * The compiled matcher: every route in one segment tree (segment-tree.ts), written out as
 * JavaScript by the emitter (matcher-emitter.ts), plus what follows a pass that found no route —
 * 405, scheme and trailing-slash redirects, 404 — as the reference loop (reference-loop.ts)
 * specifies them. Keeps no per-request state.
 */
export class UrlMatcher {
  /** The generated JavaScript (print it to see how a path is matched); `null` when matching with the reference loop. */
  readonly source: string | null = null;
  readonly #walk: Walk | null;
  readonly #collect: CollectingWalk | null;
  /** Finished results of exact static paths, by raw path then method (see `StaticAnswers`); generated code. */
  readonly #static: StaticLookup<StaticAnswers> = () => undefined;
  readonly #routes: readonly Route[];
  readonly #mode: TrailingSlashMode;
  /**
   * Whether a path that no route's path matched may still match once its trailing slash is
   * toggled: only through an opaque route's own expression or an empty segment (`/a//b`).
   */
  readonly #toggleMayReachNewRoutes: boolean;

  constructor(routes: RouteCollection | Iterable<Route>, options: UrlMatcherOptions = {}) {
    this.#mode = options.trailingSlash ?? 'redirect';
    this.#routes = [...routes];
    const builder = new SegmentTreeBuilder();
    this.#routes.forEach((route, index) => builder.add(candidateOf(route, index)));
    this.#toggleMayReachNewRoutes = builder.opaqueCount > 0 || builder.hasEmptySegment;
    const emitted = (options.generateCode ?? true) ? emitMatcher(builder.build(), this.#mode, this.#routes.length) : null;
    this.#walk = emitted?.walk ?? null;
    this.#collect = emitted?.collect ?? null;
    if (emitted === null) return;
    const statics = emitStaticLookup(this.#staticAnswers(emitted.collect));
    this.#static = statics.lookup;
    this.source = `${statics.source}\n\n${emitted.source}`;
  }

  /**
   * Matches a raw (percent-encoded) path. Throws `MalformedPathError` for bad percent-encoding.
   * Never throws for a miss: misses are the most common request and exceptions are not cheap.
   */
  match(rawPath: string, context: MatchContext): MatchResult {
    return this.#matchCommon(rawPath, context) ?? this.#matchRest(rawPath, context);
  }

  /**
   * What most requests need: a static path's answer, or one pass of the first walk that ends in
   * a route or a plain 404. `undefined` for everything else (paths ending with a slash, 405s,
   * redirects), which `#matchRest` takes from the start.
   */
  #matchCommon(rawPath: string, context: MatchContext): MatchResult | undefined {
    const answer = this.#static(rawPath)?.for(context.method);
    if (answer !== undefined) return answer;
    if (this.#walk === null) return undefined;
    // A path ending with a slash (not `/` itself; after decoding, as `%2F` is one) is most likely
    // headed for a redirect: it takes the collecting walk, so that the first walk only ever sees
    // what hits and 404s need.
    const path = decodePath(rawPath);
    if (path.charCodeAt(path.length - 1) === 47 && path.length > 1) return undefined;
    const found = this.#walk(path, context.method, context);
    if (typeof found === 'object') return found;
    if (found === undefined && !this.#toggleMayReachNewRoutes) return this.#notFound(rawPath, context.method);
    return undefined;
  }

  /**
   * No route's path matched, and the toggled path cannot match one either: the 404, its message
   * naming the path a slash retry would have tried.
   */
  #notFound(rawPath: string, method: string): MatchResult {
    // The decoded path does not end with a slash (those take the collecting walk), nor does the
    // raw one, so toggling adds one.
    if (this.#mode !== 'redirect' || (method !== 'GET' && method !== 'HEAD') || rawPath === '/') return notFoundMatch(rawPath);
    return notFoundMatch(`${rawPath}/`);
  }

  /**
   * The rest: the collecting walk over the path, gathering what refused routes allow, then 405,
   * a scheme or trailing-slash redirect, or 404 (or the reference loop, without generated code).
   */
  #matchRest(rawPath: string, context: MatchContext): MatchResult {
    if (this.#collect === null) return referenceMatch(this.#routes, rawPath, context, this.#mode);
    const method = context.method;
    const refusals = new Refusals();
    const path = decodePath(rawPath);
    const found = this.#collect(path, method, context, refusals);
    if (found instanceof SlashToggled && this.#toggleReachesSameRoute(rawPath, path))
      return redirectMatch(found.match.route, found.match.params, toggleSlash(rawPath), null);
    if (isRouteMatch(found)) return found;
    // What refused routes allow counts only when every route whose path matched refused (a GET
    // that reached a GET route across the slash ends the pass: a redirect follows).
    const refused = found === REFUSED;
    if (refused && refusals.allow !== null) return methodNotAllowedMatch(refusals.allow);
    if (this.#mode !== 'redirect' || (method !== 'GET' && method !== 'HEAD')) return notFoundMatch(rawPath);
    if (refused && refusals.schemes !== null) return this.#redirectScheme(rawPath, context, refusals.schemes[0]!);
    const toggled = toggleSlash(rawPath);
    if (toggled === '/') return notFoundMatch(rawPath);
    // No route's path matched: with plain segments, the toggled path cannot match one either.
    if (found === undefined && !this.#toggleMayReachNewRoutes && !rawPath.endsWith('//')) return notFoundMatch(toggled);
    const again = new Refusals();
    const retry = this.#collect(decodePath(toggled), method, context, again);
    if (isRouteMatch(retry)) return redirectMatch(retry.route, retry.params, toggled, null);
    if (retry === REFUSED && again.schemes !== null) return this.#redirectScheme(toggled, context, again.schemes[0]!);
    return notFoundMatch(toggled);
  }

  /**
   * Whether the route that refused `path` for its trailing slash alone is the one its toggled
   * path reaches first: so when only plain segments are in the table (an opaque route or an empty
   * segment could match the toggled path alone) and toggling the raw path toggles the decoded one
   * (no percent-escape, a single trailing slash).
   */
  #toggleReachesSameRoute(rawPath: string, path: string): boolean {
    return !this.#toggleMayReachNewRoutes && path === rawPath && !rawPath.endsWith('//');
  }

  #redirectScheme(rawPath: string, context: MatchContext, scheme: string): MatchResult {
    const found = this.#collect!(
      decodePath(rawPath),
      context.method,
      { method: context.method, host: context.host, scheme },
      new Refusals(),
    );
    return isRouteMatch(found) ? redirectMatch(found.route, found.params, rawPath, scheme) : notFoundMatch(rawPath);
  }

  /**
   * For each exact static route path, the result a request gets when it depends on nothing but
   * the method: a route's match or a 405, for each method some route names (and GET, HEAD), and
   * one for every other method (no route can tell those apart). Found by the collecting walk
   * itself, with a context that notes whether a route read its host or scheme (then nothing is
   * kept for that method).
   */
  #staticAnswers(collect: CollectingWalk): Map<string, StaticAnswers> {
    const answers = new Map<string, StaticAnswers>();
    const methods = new Set(['GET', 'HEAD', ...this.#routes.flatMap((route) => route.methods)]);
    let unnamed = 'OTHER';
    while (methods.has(unnamed)) unnamed += '_';
    for (const route of this.#routes) {
      const path = route.compiled.path.staticText;
      if (path === null || answers.has(path) || decodePath(path) !== path) continue;
      const byMethod = new Map<string, MatchResult | undefined>();
      for (const method of methods) byMethod.set(method, this.#staticAnswer(collect, path, method));
      const other = this.#staticAnswer(collect, path, unnamed);
      if ([...byMethod.values()].some((answer) => answer !== undefined) || other !== undefined)
        answers.set(path, new StaticAnswers(byMethod, other));
    }
    return answers;
  }

  /** The result of `method` on a static path, when it depends on nothing else (`undefined` otherwise). */
  #staticAnswer(collect: CollectingWalk, path: string, method: string): MatchResult | undefined {
    let readsMore = false;
    const probe: MatchContext = {
      method,
      get host() {
        readsMore = true;
        return '';
      },
      get scheme() {
        readsMore = true;
        return '';
      },
    };
    const refusals = new Refusals();
    const found = collect(path, method, probe, refusals);
    if (readsMore) return undefined;
    if (isRouteMatch(found)) return Object.isFrozen(found.params) ? found : routeMatch(found.route, Object.freeze(found.params));
    if (found === REFUSED && refusals.allow !== null) return methodNotAllowedMatch(Object.freeze(refusals.allow));
    return undefined;
  }
}

/**
 * The finished results of one exact static path, by method. The common methods each have a field
 * found by string comparisons (pointer compares for the interned method strings servers pass), so
 * a static hit costs no map lookup; other methods some route names are looked up in the full map,
 * and a method no route names gets `#other`.
 */
class StaticAnswers {
  readonly #get: MatchResult | undefined;
  readonly #head: MatchResult | undefined;
  readonly #post: MatchResult | undefined;
  readonly #put: MatchResult | undefined;
  readonly #delete: MatchResult | undefined;
  readonly #patch: MatchResult | undefined;
  readonly #all: ReadonlyMap<string, MatchResult | undefined>;
  readonly #other: MatchResult | undefined;

  /** `byMethod`: an entry for each method some route names; `other`: the answer for every other method. */
  constructor(byMethod: ReadonlyMap<string, MatchResult | undefined>, other: MatchResult | undefined) {
    const answerOf = (method: string) => (byMethod.has(method) ? byMethod.get(method) : other);
    this.#get = answerOf('GET');
    this.#head = answerOf('HEAD');
    this.#post = answerOf('POST');
    this.#put = answerOf('PUT');
    this.#delete = answerOf('DELETE');
    this.#patch = answerOf('PATCH');
    this.#all = byMethod;
    this.#other = other;
  }

  for(method: string): MatchResult | undefined {
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
        return this.#all.has(method) ? this.#all.get(method) : this.#other;
    }
  }
}

/** A collecting walk's outcome that is a route's match (not a slash toggle, nor a symbol). */
function isRouteMatch(outcome: ReturnType<CollectingWalk>): outcome is RouteMatch {
  return typeof outcome === 'object' && !(outcome instanceof SlashToggled);
}

/** The path with its trailing slashes removed, or with one added when it has none (`/` stays `/`). */
function toggleSlash(rawPath: string): string {
  const trimmed = trimTrailingSlashes(rawPath);
  return trimmed === rawPath && rawPath !== '/' ? `${rawPath}/` : trimmed;
}
