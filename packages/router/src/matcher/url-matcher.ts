import { decodePath, trimTrailingSlashes } from '../internal/decode-path.js';
import type { Route } from '../route/route.js';
import type { RouteCollection } from '../route/route-collection.js';
import { candidateOf } from './candidate.js';
import { emitMatcher, Refusals, REFUSED, STOP, type Walk, type WalkOutcome } from './matcher-emitter.js';
import {
  methodNotAllowedMatch,
  notFoundMatch,
  redirectMatch,
  type MatchContext,
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
  readonly source: string | null;
  readonly #walk: Walk | null;
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
    this.source = emitted?.source ?? null;
  }

  /**
   * Matches a raw (percent-encoded) path. Throws `MalformedPathError` for bad percent-encoding.
   * Never throws for a miss: misses are the most common request and exceptions are not cheap.
   */
  match(rawPath: string, context: MatchContext): MatchResult {
    if (this.#walk === null) return referenceMatch(this.#routes, rawPath, context, this.#mode);
    const path = decodePath(rawPath);
    const found = this.#walk(path, context.method, context, null);
    if (typeof found === 'object') return found;
    return this.#afterFirstPass(rawPath, path, context, found);
  }

  /** What follows a pass that found no route (kept out of `match`, so hits run a small function). */
  #afterFirstPass(rawPath: string, path: string, context: MatchContext, found: Exclude<WalkOutcome, object>): MatchResult {
    const method = context.method;
    let refusals: Refusals | null = null;
    if (found === REFUSED) refusals = this.#refusals(path, context);
    if (refusals?.allow) return methodNotAllowedMatch(refusals.allow);
    if (this.#mode !== 'redirect' || (method !== 'GET' && method !== 'HEAD')) return notFoundMatch(rawPath);
    if (refusals?.schemes) return this.#redirectScheme(rawPath, context, refusals.schemes[0]!);
    const trimmed = trimTrailingSlashes(rawPath);
    if (trimmed === '/') return notFoundMatch(rawPath);
    const toggled = trimmed === rawPath ? `${rawPath}/` : trimmed;
    // No route's path matched: with plain segments, the toggled path cannot match one either.
    if (found === undefined && !this.#toggleMayReachNewRoutes && !rawPath.endsWith('//')) return notFoundMatch(toggled);
    const togglePath = decodePath(toggled);
    const retry = this.#walk!(togglePath, method, context, null);
    if (typeof retry === 'object') return redirectMatch(retry.route, retry.params, toggled, null);
    if (retry === REFUSED) {
      const schemes = this.#refusals(togglePath, context).schemes;
      if (schemes !== null) return this.#redirectScheme(toggled, context, schemes[0]!);
    }
    return notFoundMatch(toggled);
  }

  /** The same pass again, this time gathering the refused methods and schemes. */
  #refusals(path: string, context: MatchContext): Refusals {
    const refusals = new Refusals();
    this.#walk!(path, context.method, context, refusals);
    return refusals;
  }

  #redirectScheme(rawPath: string, context: MatchContext, scheme: string): MatchResult {
    const found = this.#walk!(decodePath(rawPath), context.method, { method: context.method, host: context.host, scheme }, null);
    return typeof found === 'object' ? redirectMatch(found.route, found.params, rawPath, scheme) : notFoundMatch(rawPath);
  }
}
