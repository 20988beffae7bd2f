import { ErrorListener } from '@switchboard/error-controller';
import { DefaultCacheControlListener, EventDispatcher, HttpKernel, type Controller, type KernelEventMap } from '@switchboard/http-kernel';
import { RouteCollection, Router, RouterListener } from '@switchboard/router';
import { CacheAttributeListener } from '../../src/index.js';
import { serveKernel, type ServedKernel } from './serve-kernel.js';

export interface TestRoute {
  controller: Controller;
  /** Route defaults (`_cache`…): the router copies them into the request attributes. */
  defaults?: Readonly<Record<string, unknown>>;
}

export interface TestApp extends ServedKernel {
  readonly dispatcher: EventDispatcher<KernelEventMap>;
}

/**
 * A kernel as a host wires it — the cache attribute listener, the real router, error listener and
 * default Cache-Control rule — served by the real node adapter. Routes are keyed `METHOD /path/:id`.
 */
export async function startTestApp(routes: Readonly<Record<string, TestRoute>>): Promise<TestApp> {
  const collection = new RouteCollection();
  for (const [key, { controller, defaults = {} }] of Object.entries(routes)) {
    const [method, path] = key.split(' ') as [string, string];
    collection.add(key, path, { methods: [method], controller, defaults });
  }
  const dispatcher = new EventDispatcher<KernelEventMap>();
  dispatcher.addSubscriber(new RouterListener(new Router(collection)));
  dispatcher.addSubscriber(new CacheAttributeListener());
  dispatcher.addSubscriber(new ErrorListener({ debug: false }));
  dispatcher.addSubscriber(new DefaultCacheControlListener());
  const served = await serveKernel(new HttpKernel({ dispatcher }));
  return { ...served, dispatcher };
}
