import type { Request } from '@switchboard/http-kernel';
import { UrlGenerator, type GenerateOptions } from './generator/url-generator.js';
import { traceRoutes, type RouteTrace } from './diagnostics/match-log.js';
import type { MatchContext, MatchResult, TrailingSlashMode } from './matcher/match-result.js';
import { UrlMatcher } from './matcher/url-matcher.js';
import { RequestContext } from './context/request-context.js';
import type { Route } from './route/route.js';
import type { RouteCollection } from './route/route-collection.js';
import type { GenerateArguments, NoRoutes, RouteName } from './route/route-signature.js';

export interface RouterOptions {
  /** Trailing-slash handling: `redirect` (default) 301s GET/HEAD to the toggled path; `strict` never matches across it; `ignore` matches either way. */
  trailingSlash?: TrailingSlashMode;
  /** Path prefix the app is served under (behind a proxy); generated paths start with it. */
  baseUrl?: string;
  /** Context for URLs generated outside a request (defaults to `http://localhost`). */
  context?: RequestContext;
  /** Generate the matcher's JavaScript (default `true`); `false` matches with the reference loop (same answers, slower). */
  generateCode?: boolean;
}

export interface RouterGenerateOptions extends GenerateOptions {
  /** Take scheme, host and port from this request. */
  request?: Request;
  /** Or from this context (e.g. `RequestContext.fromUrl('https://v2.api.example.com')`). */
  context?: RequestContext;
}

/**
 * Matching and URL generation over one route collection. The collection is compiled when the
 * router is built; routes added to it later are not seen. The router keeps no per-request state:
 * every call takes what it needs from its arguments, so concurrent requests share it safely.
 */
export class Router<Routes extends object = NoRoutes> {
  readonly matcher: UrlMatcher;
  readonly generator: UrlGenerator;
  readonly baseUrl: string;
  readonly trailingSlash: TrailingSlashMode;
  readonly #routes: ReadonlyMap<string, Route>;
  readonly #context: RequestContext;

  constructor(routes: RouteCollection<Routes> | Iterable<Route>, options: RouterOptions = {}) {
    this.#routes = new Map([...routes].map((route) => [route.name, route]));
    this.trailingSlash = options.trailingSlash ?? 'redirect';
    this.matcher = new UrlMatcher(this.#routes.values(), { trailingSlash: this.trailingSlash, generateCode: options.generateCode ?? true });
    this.generator = new UrlGenerator(this.#routes);
    this.baseUrl = (options.baseUrl ?? options.context?.baseUrl ?? '').replace(/\/+$/, '');
    this.#context = (options.context ?? new RequestContext()).with({ baseUrl: this.baseUrl });
  }

  /** Matches a request (its raw path, method, host and scheme). Throws `MalformedPathError` on bad percent-encoding. */
  match(request: Request): MatchResult {
    return this.matcher.match(request.rawPath, request);
  }

  /** Matches a raw (percent-encoded) path in a context. */
  matchPath(rawPath: string, context: MatchContext): MatchResult {
    return this.matcher.match(rawPath, context);
  }

  /** Per route, why it did or did not match the request: for the profiler, computed on demand only. */
  matchLog(request: Request): RouteTrace[];
  matchLog(rawPath: string, context: MatchContext): RouteTrace[];
  matchLog(requestOrPath: Request | string, context?: MatchContext): RouteTrace[] {
    if (typeof requestOrPath === 'string')
      return traceRoutes(this.#routes.values(), requestOrPath, context ?? this.#context, this.trailingSlash);
    return traceRoutes(this.#routes.values(), requestOrPath.rawPath, requestOrPath, this.trailingSlash);
  }

  /**
   * A path (or absolute URL) for a named route. Context: `options.context`, else `options.request`,
   * else the router's default context. Over a collection built by chaining, the compiler checks
   * the name and the parameters (missing, or of the wrong type); other keys go to the query string.
   */
  generate<Name extends RouteName<Routes>>(name: Name, ...args: GenerateArguments<Routes, Name, RouterGenerateOptions>): string;
  generate(name: string, params: Readonly<Record<string, unknown>> = {}, options: RouterGenerateOptions = {}): string {
    const context = options.context ?? (options.request === undefined ? this.#context : this.contextFor(options.request));
    return this.generator.generate(name, params, context, options);
  }

  /** The context of a request, with the router's base URL. */
  contextFor(request: Request): RequestContext {
    return RequestContext.fromRequest(request, this.baseUrl);
  }

  get(name: string): Route | undefined {
    return this.#routes.get(name);
  }

  /** The routes in the order they are tried. */
  all(): Route[] {
    return [...this.#routes.values()];
  }
}
