import { decodePath } from '../internal/decode-path.js';
import type { Route } from '../route/route.js';
import type { RouteCollection } from '../route/route-collection.js';
import { afterPass, NO_REFUSALS, toggleSlash, type Pass } from './after-pass.js';
import { candidateOf } from './candidate.js';
import { CollectedRefusals, emitMatcher, REFUSED, SlashToggled, type CollectingWalk, type Walk } from './matcher-emitter.js';
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
import { referenceMatch } from './reference-loop.js';
import { SegmentTreeBuilder } from './segment-tree.js';
import { emitStaticLookup, StaticAnswers, type StaticLookup } from './static-answers.js';

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
    // No route's path matched, and the toggled path cannot match one either: a 404 (its message
    // names the path a slash retry would have tried). This is `notFoundWithoutRetry` (after-pass.ts)
    // for a path without a trailing slash, written out: the call cost misses ~10 ns (about 20%) in
    // bench/router.bench.ts; the property tests keep both equal to the reference loop.
    if (found === undefined && !this.#toggleMayReachNewRoutes) {
      if (this.#mode !== 'redirect' || (context.method !== 'GET' && context.method !== 'HEAD') || rawPath === '/')
        return notFoundMatch(rawPath);
      return notFoundMatch(`${rawPath}/`);
    }
    return undefined;
  }

  /**
   * The rest: the collecting walk over the path, gathering what refused routes allow, then what
   * follows a pass without a route (after-pass.ts); or the reference loop, without generated code.
   */
  #matchRest(rawPath: string, context: MatchContext): MatchResult {
    if (this.#collect === null) return referenceMatch(this.#routes, rawPath, context, this.#mode);
    const refusals = new CollectedRefusals();
    const path = decodePath(rawPath);
    const found = this.#collect(path, context.method, context, refusals);
    if (found instanceof SlashToggled && this.#toggleReachesSameRoute(rawPath, path))
      return redirectMatch(found.match.route, found.match.params, toggleSlash(rawPath), null);
    if (isRouteMatch(found)) return found;
    // No route's path matched: with plain segments, the toggled path cannot match one either.
    const toggledMayMatch = found !== undefined || this.#toggleMayReachNewRoutes || rawPath.endsWith('//');
    // What refused routes allow counts only when every route whose path matched refused (a GET
    // that reached a GET route across the slash ends the pass: a redirect follows).
    return afterPass(found === REFUSED ? refusals : NO_REFUSALS, rawPath, context, this.#mode, this.#pass, toggledMayMatch);
  }

  /** One more pass of the collecting walk, for the after-pass decision's redirects. */
  readonly #pass: Pass = (rawPath, context) => {
    const refusals = new CollectedRefusals();
    const found = this.#collect!(decodePath(rawPath), context.method, context, refusals);
    if (isRouteMatch(found)) return found;
    return found === REFUSED ? refusals : NO_REFUSALS;
  };

  /**
   * Whether the route that refused `path` for its trailing slash alone is the one its toggled
   * path reaches first: so when only plain segments are in the table (an opaque route or an empty
   * segment could match the toggled path alone) and toggling the raw path toggles the decoded one
   * (no percent-escape, a single trailing slash).
   */
  #toggleReachesSameRoute(rawPath: string, path: string): boolean {
    return !this.#toggleMayReachNewRoutes && path === rawPath && !rawPath.endsWith('//');
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
    const refusals = new CollectedRefusals();
    const found = collect(path, method, probe, refusals);
    if (readsMore) return undefined;
    if (isRouteMatch(found)) return Object.isFrozen(found.params) ? found : routeMatch(found.route, Object.freeze(found.params));
    if (found === REFUSED && refusals.allow !== null) return methodNotAllowedMatch(Object.freeze(refusals.allow));
    return undefined;
  }
}

/** A collecting walk's outcome that is a route's match (not a slash toggle, nor a symbol). */
function isRouteMatch(outcome: ReturnType<CollectingWalk>): outcome is RouteMatch {
  return typeof outcome === 'object' && !(outcome instanceof SlashToggled);
}
