import { ErrorListener } from '@switchboard/error-controller';
import {
  DefaultCacheControlListener,
  EventDispatcher,
  HttpKernel,
  NotFoundHttpError,
  type Controller,
  type KernelEventMap,
} from '@switchboard/http-kernel';
import { CacheAttributeListener } from '../../src/index.js';
import { serveKernel, type ServedKernel } from './serve-kernel.js';

export interface TestRoute {
  controller: Controller;
  /** Copied into the request attributes on a match, as the router does with route defaults. */
  defaults?: Readonly<Record<string, unknown>>;
}

export interface TestApp extends ServedKernel {
  readonly dispatcher: EventDispatcher<KernelEventMap>;
}

/**
 * A kernel as a host wires it — the cache attribute listener, the real error listener, the default
 * Cache-Control rule — over node:http. Routing: `METHOD /path/{id}` patterns in a kernel.request
 * listener at the router's priority (32), route defaults and `{id}` copied into the attributes.
 */
export async function startTestApp(routes: Readonly<Record<string, TestRoute>>): Promise<TestApp> {
  const dispatcher = new EventDispatcher<KernelEventMap>();
  dispatcher.addSubscriber(new CacheAttributeListener());
  dispatcher.addSubscriber(new ErrorListener({ debug: false }));
  dispatcher.addSubscriber(new DefaultCacheControlListener());
  const table = Object.entries(routes).map(([key, route]) => {
    const [method, path] = key.split(' ') as [string, string];
    const pattern = new RegExp(`^${path.replace(/\{(\w+)\}/g, '(?<$1>[^/]+)')}$`);
    return { key, method, pattern, route };
  });
  dispatcher.on(
    'kernel.request',
    (event) => {
      const request = event.request;
      if (request.attributes.has('_controller')) return;
      const methods = request.method === 'HEAD' ? ['HEAD', 'GET'] : [request.method];
      for (const { key, method, pattern, route } of table) {
        const match = methods.includes(method) ? pattern.exec(request.path) : null;
        if (match === null) continue;
        for (const [name, value] of Object.entries(route.defaults ?? {})) request.attributes.set(name, value);
        for (const [name, value] of Object.entries(match.groups ?? {})) request.attributes.set(name, value);
        request.attributes.set('_route', key).set('_controller', route.controller);
        return;
      }
      throw new NotFoundHttpError(`No route found for "${request.method} ${request.path}".`);
    },
    32,
    { name: 'TestRoutingListener.onKernelRequest' },
  );
  const served = await serveKernel(new HttpKernel({ dispatcher }));
  return { ...served, dispatcher };
}
