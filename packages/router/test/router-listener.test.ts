import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  defineController,
  DeferredHttpError,
  MethodNotAllowedHttpError,
  NotFoundHttpError,
  BadRequestHttpError,
  Request,
  RequestType,
  JsonResponse,
  Response,
  EventDispatcher,
  HttpKernel,
  MemoryLogger,
  type KernelEventMap,
  type Logger,
  type RequestStack,
  type HttpError,
} from '@switchboard/http-kernel';
import {
  MalformedPathError,
  MethodNotAllowedError,
  ResourceNotFoundError,
  Route,
  RouteCollection,
  Router,
  RouterListener,
  type RouterOptions,
} from '../src/index.js';
import { declarationOwner, serveKernel, testKernel, type ServedKernel, type TestKernel } from '../../../test/kit/index.js';
import { nodeHttpRequest } from '../../../test/kit/raw-http.js';

/** A kernel with the router listener; the kit's text error responder records what it answered. */
type RoutedKernel = TestKernel & { readonly listener: RouterListener; readonly logger: MemoryLogger };

/** The routes' `_is_granted` and `_cache` are other packages' to enforce: only routing is under test. */
const appRoutesOwner = declarationOwner({ routeDefaults: ['_is_granted', '_cache'] });

function routedKernel(router: Router): RoutedKernel {
  const logger = new MemoryLogger();
  const listener = new RouterListener(router, { logger });
  return { ...testKernel({ subscribers: [listener, appRoutesOwner], logger }), listener, logger };
}

const guard = { roles: ['ROLE_ADMIN'] };

function appRoutes(): RouteCollection {
  return new RouteCollection()
    .add('item', '/items/:id', {
      methods: ['GET'],
      requirements: { id: '\\d+' },
      defaults: { _is_granted: guard, _cache: { maxAgeSeconds: 60 } },
      controller: defineController(['request', 'id'], (request: Request, id: string) => {
        const attributes = Object.keys(request.attributes.all()).sort();
        return new JsonResponse({ id, attributes, routeParams: request.attributes.get('_route_params') });
      }),
    })
    .add('item_write', '/items/:id', { methods: ['PUT', 'POST'], controller: () => new Response('written') })
    .add('dir', '/docs/', { methods: 'GET', controller: () => new Response('docs') })
    .add('form', '/form', { methods: ['GET', 'POST'], controller: () => new Response('form') })
    .add('pages', '/pages{/:page}', {
      methods: ['GET'],
      controller: defineController(['page'], (page: string | undefined) => new JsonResponse({ page: page ?? null })),
    })
    .add('api', '/status', {
      host: ':version.api.example.com',
      controller: defineController(['version'], (version: string) => new Response(`api ${version}`)),
    });
}

function setup(options?: RouterOptions): RoutedKernel & { router: Router } {
  const router = new Router(appRoutes(), options);
  return { ...routedKernel(router), router };
}

describe('RouterListener over a real server', () => {
  let app: RoutedKernel & { router: Router };
  let server: ServedKernel;

  beforeAll(async () => {
    app = setup();
    server = await serveKernel(app.kernel);
  });
  afterAll(() => server.close());

  it('sets _route, _route_path, _controller, the params, the route defaults and _route_params', async () => {
    const response = await fetch(`${server.origin}/items/42`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { id: string; attributes: string[]; routeParams: Record<string, unknown> };
    expect(body.id).toBe('42');
    expect(body.attributes).toEqual(['_cache', '_controller', '_is_granted', '_route', '_route_params', '_route_path', 'id']);
    expect(body.routeParams).toEqual({ id: '42', _is_granted: guard, _cache: { maxAgeSeconds: 60 } });
  });

  it('answers a path without route with 404 and the exact message, the routing error as cause', async () => {
    const before = app.errors.length;
    const response = await fetch(`${server.origin}/robots.txt`);
    expect(response.status).toBe(404);
    const error = app.errors[before] as NotFoundHttpError;
    expect(error).toBeInstanceOf(NotFoundHttpError);
    expect(error.message).toBe(`No route found for "GET ${server.origin}/robots.txt"`);
    expect(await response.text()).toBe(`404 ${error.message}`);
    expect(error.cause).toBeInstanceOf(ResourceNotFoundError);
    expect((error.cause as Error).message).toBe('No routes found for "/robots.txt/".');
  });

  it('appends the referer verbatim', async () => {
    const before = app.errors.length;
    await fetch(`${server.origin}/nope?x=1`, { headers: { referer: 'http://localhost:3000/page?a=b' } });
    expect((app.errors[before] as Error).message).toBe(
      `No route found for "GET ${server.origin}/nope" (from "http://localhost:3000/page?a=b")`,
    );
  });

  it('keeps the path percent-encoded and the original path for non-GET methods in the inner message', async () => {
    const before = app.errors.length;
    const response = await fetch(`${server.origin}/caf%C3%A9`, { method: 'DELETE' });
    expect(response.status).toBe(404);
    const error = app.errors[before] as Error;
    expect(error.message).toBe(`No route found for "DELETE ${server.origin}/caf%C3%A9"`);
    expect((error.cause as Error).message).toBe('No routes found for "/caf%C3%A9".');
  });

  it('treats GET / without a route as an ordinary 404', async () => {
    const before = app.errors.length;
    const response = await fetch(`${server.origin}/`);
    expect(response.status).toBe(404);
    expect((app.errors[before] as Error).message).toBe(`No route found for "GET ${server.origin}/"`);
  });

  it('answers 405 with the Allow header and the exact message', async () => {
    const before = app.errors.length;
    const response = await fetch(`${server.origin}/items/42`, { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, PUT, POST');
    const error = app.errors[before] as MethodNotAllowedHttpError;
    expect(error).toBeInstanceOf(MethodNotAllowedHttpError);
    expect(error.message).toBe(`No route found for "DELETE ${server.origin}/items/42": Method Not Allowed (Allow: GET, PUT, POST)`);
    expect(error.cause).toBeInstanceOf(MethodNotAllowedError);
    expect((error.cause as MethodNotAllowedError).allowedMethods).toEqual(['GET', 'PUT', 'POST']);
  });

  it('redirects a toggled trailing slash with 301 to the absolute URL, query kept, no cookie', async () => {
    const response = await fetch(`${server.origin}/docs?page=2&q=a%20b`, { redirect: 'manual' });
    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe(`${server.origin}/docs/?page=2&q=a%20b`);
    expect(response.headers.get('set-cookie')).toBeNull();
    const followed = await fetch(`${server.origin}/form/`);
    expect(followed.status).toBe(200);
    expect(followed.redirected).toBe(true);
    expect(await followed.text()).toBe('form');
  });

  it('answers 404 to other methods on a toggled slash', async () => {
    expect((await fetch(`${server.origin}/form/`, { method: 'POST' })).status).toBe(404);
  });

  it('answers HEAD on GET routes', async () => {
    const response = await fetch(`${server.origin}/items/7`, { method: 'HEAD' });
    expect(response.status).toBe(200);
  });

  it('answers malformed percent-encoding with 400 through the error flow', async () => {
    const before = app.errors.length;
    const response = await fetch(`${server.origin}/items/%E0%A4%A`);
    expect(response.status).toBe(400);
    const error = app.errors[before] as BadRequestHttpError;
    expect(error).toBeInstanceOf(BadRequestHttpError);
    expect(error.cause).toBeInstanceOf(MalformedPathError);
  });

  it('gives an optional parameter the path left out, without a default, as undefined', async () => {
    expect(await (await fetch(`${server.origin}/pages`)).json()).toEqual({ page: null });
    expect(await (await fetch(`${server.origin}/pages/3`)).json()).toEqual({ page: '3' });
  });

  it('routes by host and gives the host parameters', async () => {
    // fetch may not set Host; node:http may.
    const { body } = await nodeHttpRequest(server.origin, '/status', { headers: { host: 'v2.api.example.com' } });
    expect(body).toBe('api v2');
  });

  it('gives concurrent requests their own parameters', async () => {
    const ids = Array.from({ length: 60 }, (_, i) => String(i));
    const bodies = await Promise.all(
      ids.map(async (id) => ((await (await fetch(`${server.origin}/items/${id}`)).json()) as { id: string }).id),
    );
    expect(bodies).toEqual(ids);
  });
});

describe('RouterListener in the kernel', () => {
  it('logs the matched route at INFO on the request channel', async () => {
    const app = setup();
    await app.kernel.handle(Request.fromUrl('http://localhost/items/5?x=1'));
    const record = app.logger.records.find((r) => r.message === 'Matched route "item".');
    expect(record).toMatchObject({ level: 'INFO', channel: 'request' });
    expect(record?.context).toMatchObject({ route: 'item', request_uri: 'http://localhost/items/5?x=1', method: 'GET' });
  });

  it('outside debug mode, builds its 404 and 405 without stack traces and names their throw site; full stacks in debug mode', async () => {
    const routingError = async (debug: boolean, method: string, path: string): Promise<HttpError> => {
      const dispatcher = new EventDispatcher<KernelEventMap>();
      dispatcher.addSubscriber(new RouterListener(new Router(appRoutes()), { debug })).addSubscriber(appRoutesOwner);
      const kernel = new HttpKernel({ dispatcher });
      return kernel.handle(Request.fromUrl(`http://localhost${path}`, { method }), RequestType.MAIN, false).then(
        () => expect.unreachable('routing must fail'),
        (error: unknown) => error as HttpError,
      );
    };
    const frames = (error: unknown) =>
      String((error as Error).stack)
        .split('\n')
        .filter((line) => line.trimStart().startsWith('at '));
    const limit = Error.stackTraceLimit;
    for (const [method, path] of [
      ['GET', '/nowhere'],
      ['DELETE', '/form'],
    ] as const) {
      const quiet = await routingError(false, method, path);
      expect(frames(quiet)).toHaveLength(0);
      expect(frames(quiet.cause)).toHaveLength(0);
      expect(quiet.thrownBy).toBe('RouterListener.onKernelRequest');
      expect(String(quiet.stack)).toBe(`${quiet.name}: ${quiet.message}`);
      const full = await routingError(true, method, path);
      // The same error either way but for the stack: class, own properties in order, message, cause.
      for (const [without, withStack] of [
        [quiet, full],
        [quiet.cause, full.cause],
      ] as const) {
        expect(Object.getPrototypeOf(without)).toBe(Object.getPrototypeOf(withStack));
        expect(Object.getOwnPropertyNames(without).sort()).toEqual(Object.getOwnPropertyNames(withStack).sort());
        expect(Object.entries(without as object)).toEqual(Object.entries(withStack as object));
        expect((without as Error).message).toBe((withStack as Error).message);
      }
      expect(frames(full).length).toBeGreaterThan(1);
      expect(frames(full)[0]).toContain('router-listener');
      expect(frames(full.cause).length).toBeGreaterThan(1);
    }
    expect(Error.stackTraceLimit).toBe(limit);
  });

  it('outside debug mode, hands kernel.exception a described 404 and 405 whose error is made on first read', async () => {
    const seen: Array<{ status: number; headers: unknown; described: boolean; error: unknown }> = [];
    const dispatcher = new EventDispatcher<KernelEventMap>();
    dispatcher.addSubscriber(new RouterListener(new Router(appRoutes()))).addSubscriber(appRoutesOwner);
    dispatcher.on('kernel.exception', (event) => {
      const described = event.pendingThrowable instanceof DeferredHttpError;
      seen.push({ status: event.status, headers: event.errorHeaders, described, error: event.throwable });
      event.setResponse(new Response('', event.status));
    });
    const kernel = new HttpKernel({ dispatcher });
    const headers = { referer: 'http://localhost/from' };
    expect((await kernel.handle(Request.fromUrl('http://localhost/nowhere', { headers }))).status).toBe(404);
    expect((await kernel.handle(Request.fromUrl('http://localhost/form', { method: 'DELETE' }))).status).toBe(405);
    const [notFound, notAllowed] = seen;
    expect(notFound).toMatchObject({ status: 404, headers: {}, described: true });
    expect(notFound!.error).toBeInstanceOf(NotFoundHttpError);
    expect((notFound!.error as Error).message).toBe('No route found for "GET http://localhost/nowhere" (from "http://localhost/from")');
    expect(notAllowed).toMatchObject({ status: 405, headers: { allow: 'GET, POST' }, described: true });
    expect(notAllowed!.error).toBeInstanceOf(MethodNotAllowedHttpError);
  });

  it('skips the match line when the logger says INFO is off, and still routes', async () => {
    const written: string[] = [];
    const write = (_context: Record<string, unknown> | string, message = ''): void => void written.push(message);
    const infoOff: Logger = {
      debug: write,
      info: write,
      warn: write,
      error: write,
      fatal: write,
      child: () => infoOff,
      isLevelEnabled: (level) => level !== 'info' && level !== 'debug',
    };
    const dispatcher = new EventDispatcher<KernelEventMap>();
    dispatcher.addSubscriber(new RouterListener(new Router(appRoutes()), { logger: infoOff })).addSubscriber(appRoutesOwner);
    const response = await new HttpKernel({ dispatcher }).handle(Request.fromUrl('http://localhost/docs/'));
    expect(response.body).toBe('docs');
    expect(written).toEqual([]);
  });

  it('does not match a sub-request that already has a controller, like the error sub-request', async () => {
    const app = setup();
    let routed: unknown = 'unset';
    const controller = defineController(['request'], (request: Request) => {
      routed = request.attributes.get('_route');
      return new Response('sub');
    });
    const sub = Request.fromUrl('http://localhost/robots.txt', { attributes: [['_controller', controller]] });
    const response = await app.kernel.handle(sub, RequestType.SUB);
    expect(await response.body).toBe('sub');
    expect(routed).toBeUndefined();
  });

  it('restores the chain context to the parent request on finish_request', async () => {
    const seen: string[] = [];
    let stack: RequestStack | null = null;
    let app: RoutedKernel | null = null;
    const subController = defineController(['request'], (request: Request) => {
      seen.push(`sub:${app!.listener.contextOf(request.requestStack!)?.queryString}`);
      return new Response('sub');
    });
    const mainController = defineController(['request'], async (request: Request) => {
      stack = request.requestStack;
      seen.push(`main:${app!.listener.contextOf(stack!)?.queryString}`);
      await app!.kernel.handle(request.duplicate({ query: 'sub=1', attributes: [['_controller', subController]] }), RequestType.SUB);
      seen.push(`after:${app!.listener.contextOf(stack!)?.queryString}`);
      return new Response('main');
    });
    app = routedKernel(new Router(new RouteCollection().add('main', '/main', { controller: mainController })));
    // Every finish_request listener of the sub-request, the first one too, sees the parent's context.
    app.dispatcher.on(
      'kernel.finish_request',
      (event) => {
        if (!event.isMainRequest()) seen.push(`finishing:${app!.listener.contextOf(event.requestStack!)?.queryString}`);
      },
      1024,
    );
    await app.kernel.handle(Request.fromUrl('http://localhost/main?main=1'));
    expect(seen).toEqual(['main:main=1', 'sub:sub=1', 'finishing:main=1', 'after:main=1']);
    // Dropped once the main request is finished.
    expect(app.listener.contextOf(stack!)).toBeUndefined();
  });

  it('declares its priorities as named constants', () => {
    expect(RouterListener.REQUEST_PRIORITY).toBe(32);
    const listener = new RouterListener(new Router(new RouteCollection()));
    // The parent's context comes back with the kernel's `isFinishing`: no kernel.finish_request listener.
    expect(listener.getSubscribedEvents()).toEqual({ 'kernel.request': [listener.onKernelRequest, 32] });
  });

  it('strict mode answers the toggled slash with 404 and keeps the original path', async () => {
    const app = setup({ trailingSlash: 'strict' });
    const response = await app.kernel.handle(Request.fromUrl('http://localhost/docs'));
    expect(response.status).toBe(404);
    expect(((app.errors[0] as Error).cause as Error).message).toBe('No routes found for "/docs".');
  });

  it("gives the kernel its routes' declarations: `_` defaults but the optional ones, and argument options", async () => {
    const controller = defineController([{ name: 'note', options: { payload: { from: 'json' } } }, 'limit'], () => new Response('created'));
    const routes = new RouteCollection()
      .add('notes', '/notes', { controller, defaults: { _is_granted: 'ROLE_ADMIN', limit: 10 } })
      .add('docs', '/docs', { controller: () => new Response('docs'), defaults: { _cache: {} }, optionalDefaults: ['_cache'] });
    const listener = new RouterListener(new Router(routes));
    expect([...listener.getRouteDeclarations()]).toEqual([
      { route: 'notes', name: '_is_granted', kind: 'route default' },
      { route: 'notes', name: '_controller', kind: 'route default' },
      { route: 'notes', name: 'payload', kind: 'argument option', argument: 'note' },
      { route: 'docs', name: '_controller', kind: 'route default' },
    ]);
    const { kernel } = testKernel({ subscribers: [listener] });
    await expect(kernel.handle(Request.fromUrl('http://localhost/docs'))).rejects.toThrow('route "notes": route default "_is_granted"');
  });

  it('refuses, before the first request, a controller argument its route neither gives nor has a resolver for', async () => {
    const show = defineController(['noteId', 'tenant', 'format', 'request', '_route'], () => new Response('never'), 'notes.show');
    // Written as a Route: the typed `add` would already refuse it at compile time.
    const routes = new RouteCollection().add(
      new Route('notes_show', '/notes/:id', { controller: show, host: ':tenant.example.com', defaults: { format: 'json' } }),
    );
    let called = 0;
    const { kernel } = testKernel({
      subscribers: [new RouterListener(new Router(routes))],
      setup: (dispatcher) => dispatcher.on('kernel.request', () => void called++),
    });
    await expect(kernel.handle(Request.fromUrl('http://acme.example.com/notes/1'))).rejects.toThrow(
      '1 controller argument(s) have no source, so each request to their route would fail:\n' +
        '  - route "notes_show" (path "/notes/:id", host ":tenant.example.com", parameters: id, tenant): argument "noteId" of controller ' +
        '"notes.show" is neither a route parameter nor resolvable: name it after a parameter, give it a default value, ' +
        'or register the resolver or listener that provides it.',
    );
    expect(called).toBe(0);
    const fixed = new RouteCollection().add('notes_show', '/notes/:noteId', {
      controller: show,
      host: ':tenant.example.com',
      defaults: { format: 'json' },
    });
    const served = testKernel({ subscribers: [new RouterListener(new Router(fixed))] });
    expect((await served.kernel.handle(Request.fromUrl('http://acme.example.com/notes/1'))).body).toBe('never');
  });
});
