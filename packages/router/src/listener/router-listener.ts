import {
  BadRequestHttpError,
  isLogged,
  MethodNotAllowedHttpError,
  NotFoundHttpError,
  nullLogger,
  type EventSubscriber,
  type HttpError,
  type KernelEventMap,
  type Logger,
  type Request,
  type RequestEvent,
  type RequestStack,
  type OwnedDeclarations,
  type RouteController,
  type RouteDeclaration,
  type SubscribedEvents,
} from '@switchboard/http-kernel';
import { MalformedPathError, MethodNotAllowedError, ResourceNotFoundError } from '../error/routing-error.js';
import type { MatchResult, MethodNotAllowedMatch, NotFoundMatch, RedirectMatch } from '../matcher/match-result.js';
import type { RequestContext } from '../context/request-context.js';
import type { Route } from '../route/route.js';
import { routeControllers, routeDeclarations } from '../route/route-declarations.js';
import type { Router } from '../router.js';
import '../request-attributes.js';
import { applyParameterSchemas } from './parameter-validation.js';
import { redirectController } from './redirect-controller.js';
import { RouteMiss, routingErrorMessage, THROWN_BY } from './route-miss.js';

export interface RouterListenerOptions {
  /** Gets `Matched route "<name>".` at INFO on the `request` channel. */
  logger?: Logger;
  /**
   * In debug mode the 404 and 405 errors are made at once with full stack traces, as the debug
   * error page shows them. Otherwise (the default) the request is failed with a `RouteMiss`: the
   * error is made only when read, without a stack trace, and names its throw site, which is all
   * the error log line reads.
   */
  debug?: boolean;
}

/**
 * Routes each request on `kernel.request`: sets `_route`, `_route_path`, `_controller`, the route's parameters
 * and defaults (a parameter with a schema gets the schema's output), and `_route_params`; or fails it (400 when a parameter schema refuses a value) (`RequestEvent.failWith`) with a 404, 405 or 400 whose `cause` is the routing error;
 * or routes to a 301 when only the trailing slash differs. A request that already has a
 * `_controller` (the error sub-request) is not matched.
 */
export class RouterListener implements EventSubscriber<KernelEventMap> {
  /**
   * After `CorsListener`, `IdleConnectionListener` and `LocaleListener.DEFAULT_LOCALE_PRIORITY`; before
   * `LocaleListener.REQUEST_PRIORITY` and `FirewallListener.REQUEST_PRIORITY`, which need the route.
   */
  static readonly REQUEST_PRIORITY = 32;
  readonly #logger: Logger;
  readonly #logsMatches: boolean;
  readonly #debug: boolean;
  /** The routing attributes of each match the router keeps whole, by its matched values. */
  readonly #fixedAttributes = new WeakMap<Readonly<Record<string, unknown>>, readonly unknown[]>();

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
      'kernel.request': [this.onKernelRequest, RouterListener.REQUEST_PRIORITY],
    };
  }

  /** The router's routes' declarations, which the kernel checks have owners before serving. */
  getRouteDeclarations(): Iterable<RouteDeclaration> {
    return routeDeclarations(this.router.all());
  }

  /** The router's routes' controllers, whose arguments the kernel checks have a source before serving. */
  getRouteControllers(): Iterable<RouteController> {
    return routeControllers(this.router.all());
  }

  /** The routing attributes every matched request carries, which a controller may take as arguments. */
  getOwnedDeclarations(): OwnedDeclarations {
    return { requestAttributes: ROUTING_ATTRIBUTES };
  }

  /** Routes the request, or fails it with the HTTP error it gets instead (no throw: docs/decisions.md D9). */
  onKernelRequest(event: RequestEvent): void {
    const failure = this.#route(event);
    if (failure !== null) event.failWith(failure);
  }

  /** Sets the routing attributes, or returns the HTTP error the request gets instead. */
  #route(event: RequestEvent): HttpError | RouteMiss | null {
    const request = event.request;
    if (request.attributes.has('_controller')) return null;

    let result: MatchResult;
    try {
      result = this.router.match(request);
    } catch (error) {
      if (error instanceof MalformedPathError) return new BadRequestHttpError(error.message, { cause: error });
      throw error;
    }
    switch (result.kind) {
      case 'match': {
        const params = applyParameterSchemas(result.route, result.params);
        if (params instanceof BadRequestHttpError) return params;
        this.#apply(request, result.route, params);
        return null;
      }
      case 'redirect':
        this.#applyRedirect(request, result);
        return null;
      case 'method-not-allowed':
      case 'not-found':
        // In debug mode the error is made here, for the stack trace the debug page shows.
        return this.#debug ? routingError(request, result) : new RouteMiss(request, result);
    }
  }

  /**
   * The context of the request being handled on a chain (`event.requestStack`), for URL
   * generation: the request on top of the stack, or its parent once that sub-request is
   * finishing; `undefined` once the chain's main request is done.
   */
  contextOf(stack: RequestStack): RequestContext | undefined {
    const current = stack.getCurrentRequest();
    if (current === null) return undefined;
    return this.router.contextFor(current.isFinishing ? (stack.getParentRequest() ?? current) : current);
  }

  #apply(request: Request, route: Route, params: Readonly<Record<string, unknown>>): void {
    const name = route.name;
    if (this.#logsMatches) {
      // Through the request's own logger once one is bound (RequestIdListener): the line carries its id.
      const logger = request.attributes.has('_request_id') ? request.logger.child({ channel: 'request' }) : this.#logger;
      logger.info({ route: name, route_parameters: params, request_uri: request.uri, method: request.method }, `Matched route "${name}".`);
    }
    // A match the router keeps whole (frozen: a route without path parameters) sets the same
    // attributes on every request: built once.
    if (Object.isFrozen(params)) {
      let fixed = this.#fixedAttributes.get(params);
      if (fixed === undefined) {
        const list = new PairList();
        setRoutingAttributes(list, route, params, true);
        fixed = list.pairs;
        this.#fixedAttributes.set(params, fixed);
      }
      request.attributes.setPairs(fixed);
      return;
    }
    setRoutingAttributes(request.attributes, route, params, false);
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
    this.#apply(request, result.route, { _controller: redirectController });
    request.attributes.set('_redirect_url', url);
  }
}

const ROUTING_ATTRIBUTES = ['_route', '_route_path', '_route_params', '_controller'] as const;

/** The attributes about the route itself, which a match always sets last. */
const ROUTE_FACTS = new Set(['_route', '_route_path', '_route_params']);

/** Where a match's attributes go: a request's bag, or the list built once for a static route. */
interface AttributeTarget {
  set(key: string, value: unknown): unknown;
}

/** Collects attributes as `[key, value…]` pairs, for `AttributeBag.setPairs`. */
class PairList implements AttributeTarget {
  readonly pairs: unknown[] = [];

  set(key: string, value: unknown): this {
    this.pairs.push(key, value);
    return this;
  }
}

/**
 * The attributes a match sets, in order: each matched value (route defaults overlaid by the
 * path's values), `undefined` for an optional parameter the path left out without a default (its
 * argument gets `undefined`), then `_route`, `_route_path` and `_route_params` (the values without
 * `_route` and `_controller`; frozen when `shared` by every request of a route, so that none can
 * change it for the others).
 */
function setRoutingAttributes(into: AttributeTarget, route: Route, params: Readonly<Record<string, unknown>>, shared: boolean): void {
  const routeParams: Record<string, unknown> = {};
  for (const key of Object.keys(params)) {
    const value = params[key];
    // The three set last are the router's own, whatever a default says.
    if (!ROUTE_FACTS.has(key)) into.set(key, value);
    if (key !== '_route' && key !== '_controller') routeParams[key] = value;
  }
  for (const variable of route.compiled.variables) if (!(variable in params)) into.set(variable, undefined);
  into.set('_route', route.name);
  into.set('_route_path', route.path);
  into.set('_route_params', shared ? Object.freeze(routeParams) : routeParams);
}

/** Options of both errors: their messages quote the URL and the Referer, for the log and not the client. */
const ROUTING_ERROR = { thrownBy: THROWN_BY, exposeMessage: false } as const;

/**
 * The 405 or 404 for a request no route takes, made here in debug mode so that its stack trace
 * starts at the router listener (the debug page's throw site), with the matcher's finding as its
 * cause.
 */
function routingError(request: Request, result: MethodNotAllowedMatch | NotFoundMatch): HttpError {
  const message = routingErrorMessage(request, result);
  if (result.kind === 'method-not-allowed') {
    const allowed = result.allowedMethods;
    return new MethodNotAllowedHttpError(allowed, message, { cause: new MethodNotAllowedError(allowed), ...ROUTING_ERROR });
  }
  return new NotFoundHttpError(message, { cause: new ResourceNotFoundError(result.path), ...ROUTING_ERROR });
}
