import {
  NotFoundHttpError,
  type Controller,
  type EventSubscriber,
  type KernelEventMap,
  type Request,
  type RequestEvent,
  type SubscribedEvents,
} from '@switchboard/http-kernel';

/** A route of the table: its controller, and the defaults copied into the request attributes. */
export interface TestRoute {
  readonly controller: Controller;
  readonly defaults?: Readonly<Record<string, unknown>>;
  /** The `_route` attribute; the table key when not given. */
  readonly name?: string;
}

/**
 * `'/path'` (any method) or `'GET /path'` → a controller or a route. Paths match exactly, as the
 * request's decoded path; anything else is a 404.
 */
export type RouteTable = Readonly<Record<string, Controller | TestRoute>>;

/**
 * A minimal exact-path router for packages whose tests do not need the router package (or must
 * not depend on it): sets `_route`, `_controller` and the route's defaults on each request that
 * arrives without a controller.
 */
export class RouteTableListener implements EventSubscriber<KernelEventMap> {
  /** Where `RouterListener` routes, so listeners under test see the same order as with the router. */
  static readonly REQUEST_PRIORITY = 32;

  readonly #routes = new Map<string, { name: string; route: TestRoute }>();
  /** Every request that reached the table, main and sub-requests, in order. */
  readonly handled: Request[] = [];

  constructor(routes: RouteTable) {
    for (const [key, entry] of Object.entries(routes)) {
      const route = typeof entry === 'function' ? { controller: entry } : entry;
      const { method, path } = parseRouteKey(key);
      this.#routes.set(`${method ?? '*'} ${path}`, { name: route.name ?? key, route });
    }
  }

  getSubscribedEvents(): SubscribedEvents<KernelEventMap> {
    return { 'kernel.request': [this.onKernelRequest, RouteTableListener.REQUEST_PRIORITY] };
  }

  onKernelRequest(event: RequestEvent): void {
    const request = event.request;
    this.handled.push(request);
    // An error page's sub-request arrives with its controller set, as the router leaves it.
    if (request.attributes.has('_controller')) return;
    const found = this.#routes.get(`${request.method} ${request.path}`) ?? this.#routes.get(`* ${request.path}`);
    if (found === undefined) throw new NotFoundHttpError(`No route found for "${request.method} ${request.url}"`);
    for (const [key, value] of Object.entries(found.route.defaults ?? {})) request.attributes.set(key, value);
    request.attributes.set('_route', found.name);
    request.attributes.set('_controller', found.route.controller);
  }
}

/** A route table of handlers that each get the request, whatever their parameter is called. */
export function handlerRoutes(handlers: Readonly<Record<string, (request: Request) => unknown>>): RouteTable {
  return Object.fromEntries(Object.entries(handlers).map(([key, handler]) => [key, (request: Request) => handler(request)]));
}

/** `'GET /path'` → method and path; `'/path'` (which may hold spaces) → any method. */
export function parseRouteKey(key: string): { method: string | null; path: string } {
  const methodAndPath = /^([A-Z]+) (.+)$/.exec(key);
  return methodAndPath === null ? { method: null, path: key } : { method: methodAndPath[1]!, path: methodAndPath[2]! };
}
