import {
  BadRequestHttpError,
  isLogged,
  MethodNotAllowedHttpError,
  NotFoundHttpError,
  nullLogger,
  type EventSubscriber,
  type FinishRequestEvent,
  type KernelEventMap,
  type Logger,
  type Request,
  type RequestEvent,
  type RequestStack,
  type SubscribedEvents,
} from '@switchboard/http-kernel';
import { MalformedPathError, MethodNotAllowedError, ResourceNotFoundError } from '../error/routing-error.js';
import type { MatchResult, RedirectMatch } from '../matcher/match-result.js';
import type { RequestContext } from '../request-context.js';
import type { Router } from '../router.js';
import '../request-attributes.js';
import { redirectController } from './redirect-controller.js';

export interface RouterListenerOptions {
  /** Gets `Matched route "<name>".` at INFO on the `request` channel. */
  logger?: Logger;
  /**
   * In debug mode the 404/405/400 errors carry a full stack, as the debug error page shows it.
   * Otherwise (the default) the HTTP error keeps only its throw site, which is all the error log
   * line reads, and its routing cause no stack: misses are the most common requests, and
   * capturing stacks was their dearest part.
   */
  debug?: boolean;
}

/**
 * Routes each request on `kernel.request`: sets `_route`, `_controller`, the route's parameters
 * and defaults, and `_route_params`; or throws 404 / 405 / 400 with the routing error as `cause`;
 * or routes to a 301 when only the trailing slash differs (ruling 5). A request that already has a
 * `_controller` (the error sub-request) is not matched.
 */
export class RouterListener implements EventSubscriber<KernelEventMap> {
  /** After CORS (250), idle connections (192) and the default locale (100); before locale (16) and firewall (8), which need the route. */
  static readonly REQUEST_PRIORITY = 32;
  /** Resets the chain's context once a (sub-)request is done, like the locale listener. */
  static readonly FINISH_REQUEST_PRIORITY = 0;

  readonly #logger: Logger;
  /**
   * Per request chain, once a sub-request has finished: the parent request whose context is back
   * in force, from the sub-request's `kernel.finish_request` until the next sub-request starts or
   * the main request finishes. Otherwise the request on top of the chain's stack is the one.
   */
  readonly #restored = new WeakMap<RequestStack, Request>();
  readonly #logsMatches: boolean;
  readonly #debug: boolean;
  /** Outside debug mode: the stack line of each throw site, read once (see `ThrowSite`). */
  readonly #notFoundSite = new ThrowSite();
  readonly #methodNotAllowedSite = new ThrowSite();

  constructor(
    private readonly router: Router,
    options: RouterListenerOptions = {},
  ) {
    this.#logger = (options.logger ?? nullLogger).child({ channel: 'request' });
    // The match line's context is built per request; a logger that drops INFO should not pay for it.
    this.#logsMatches = isLogged(this.#logger, 'INFO');
    this.#debug = options.debug ?? false;
  }

  getSubscribedEvents(): SubscribedEvents<KernelEventMap> {
    return {
      'kernel.request': {
        listener: (event) => this.onKernelRequest(event),
        priority: RouterListener.REQUEST_PRIORITY,
        name: 'RouterListener.onKernelRequest',
      },
      'kernel.finish_request': {
        listener: (event) => this.onKernelFinishRequest(event),
        priority: RouterListener.FINISH_REQUEST_PRIORITY,
        name: 'RouterListener.onKernelFinishRequest',
      },
    };
  }

  onKernelRequest(event: RequestEvent): void {
    const request = event.request;
    // A delete that finds nothing is cheap; a set per sub-request would not be.
    if (event.requestStack !== null && !event.isMainRequest()) this.#restored.delete(event.requestStack);
    if (request.attributes.has('_controller')) return;

    let result: MatchResult;
    try {
      result = this.router.match(request);
    } catch (error) {
      if (error instanceof MalformedPathError) throw new BadRequestHttpError(error.message, { cause: error });
      throw error;
    }
    switch (result.kind) {
      case 'match':
        this.#apply(request, result.route.name, result.params);
        return;
      case 'redirect':
        this.#applyRedirect(request, result);
        return;
      case 'method-not-allowed': {
        const allowed = result.allowedMethods;
        const message = `${notFoundMessage(request)}: Method Not Allowed (Allow: ${allowed.join(', ')})`;
        const limit = this.#limitStack(NO_FRAMES);
        const cause = new MethodNotAllowedError(allowed);
        this.#limitStack(this.#methodNotAllowedSite.framesToCapture, limit);
        const error = new MethodNotAllowedHttpError(allowed, message, { cause });
        Error.stackTraceLimit = limit;
        if (!this.#debug) this.#methodNotAllowedSite.apply(error);
        throw error;
      }
      case 'not-found': {
        const message = withReferer(notFoundMessage(request), request);
        const limit = this.#limitStack(NO_FRAMES);
        const cause = new ResourceNotFoundError(result.path);
        this.#limitStack(this.#notFoundSite.framesToCapture, limit);
        const error = new NotFoundHttpError(message, { cause });
        Error.stackTraceLimit = limit;
        if (!this.#debug) this.#notFoundSite.apply(error);
        throw error;
      }
    }
  }

  /**
   * Outside debug mode, lets the next error capture at most `frames` stack frames; returns the
   * limit to restore once the error is built.
   */
  #limitStack(frames: number, limit = Error.stackTraceLimit): number {
    if (!this.#debug) Error.stackTraceLimit = Math.min(limit, frames);
    return limit;
  }

  /** After a sub-request, the chain's context is the parent request's again; after the main request nothing is kept. */
  onKernelFinishRequest(event: FinishRequestEvent): void {
    const stack = event.requestStack;
    if (stack === null) return;
    const parent = stack.getParentRequest();
    if (parent === null) this.#restored.delete(stack);
    else this.#restored.set(stack, parent);
  }

  /**
   * The context of the request being handled on a chain (`event.requestStack`), for URL
   * generation; `undefined` once the chain's main request is done.
   */
  contextOf(stack: RequestStack): RequestContext | undefined {
    const request = this.#restored.get(stack) ?? stack.getCurrentRequest();
    return request === null ? undefined : this.router.contextFor(request);
  }

  #apply(request: Request, name: string, params: Record<string, unknown>): void {
    if (this.#logsMatches) {
      this.#logger.info(
        { route: name, route_parameters: params, request_uri: request.uri, method: request.method },
        `Matched route "${name}".`,
      );
    }
    const attributes = request.attributes;
    const routeParams: Record<string, unknown> = {};
    for (const key of Object.keys(params)) {
      const value = params[key];
      attributes.set(key, value);
      if (key !== '_route' && key !== '_controller') routeParams[key] = value;
    }
    attributes.set('_route', name);
    attributes.set('_route_params', routeParams);
  }

  /**
   * Only routing attributes: the target route's defaults (`_is_granted`, `_cache`…) are not
   * copied, so they never apply to the redirect itself.
   */
  #applyRedirect(request: Request, result: RedirectMatch): void {
    const scheme = result.scheme ?? request.scheme;
    const host = scheme === request.scheme ? request.httpHost : request.host;
    const query = request.queryString === '' ? '' : `?${request.queryString}`;
    const url = `${scheme}://${host}${this.router.baseUrl}${result.path}${query}`;
    this.#apply(request, result.route.name, { _controller: redirectController });
    request.attributes.set('_redirect_url', url);
  }
}

/** Nothing reads the cause's stack outside debug mode. */
const NO_FRAMES = 0;

/**
 * The throw site of one `throw` statement, for the error log line, which names where the HTTP
 * error was thrown. Every error thrown there has the same one, yet capturing even one frame means
 * walking the optimized frames above the constructor: the first error captures it for real, and
 * later ones are built without frames and given the line it produced (their own name and message
 * before it, as V8 writes a stack). A stack not in V8's format (a custom `prepareStackTrace`) is
 * never copied: every error then captures its frame.
 */
class ThrowSite {
  /** `undefined`: not seen yet; `null`: not reusable. */
  #frameLines: string | null | undefined = undefined;

  get framesToCapture(): number {
    return typeof this.#frameLines === 'string' ? NO_FRAMES : 1;
  }

  /** Gives `error` (built with `framesToCapture` frames) the throw site's stack line. */
  apply(error: Error): void {
    if (typeof this.#frameLines === 'string') {
      error.stack = `${error.name}: ${error.message}${this.#frameLines}`;
      return;
    }
    if (this.#frameLines === null) return;
    const stack: unknown = error.stack;
    const header = `${error.name}: ${error.message}`;
    this.#frameLines = typeof stack === 'string' && stack.startsWith(`${header}\n`) ? stack.slice(header.length) : null;
  }
}

/** `No route found for "GET http://host[:port]/path"`: the request's method, path still percent-encoded, no query. */
function notFoundMessage(request: Request): string {
  return `No route found for "${request.method} ${request.url}"`;
}

function withReferer(message: string, request: Request): string {
  const referer = request.headers.get('referer');
  return referer === undefined ? message : `${message} (from "${referer}")`;
}
