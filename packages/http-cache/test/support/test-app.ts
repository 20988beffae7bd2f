import { ErrorListener } from '@switchboard/error-controller';
import {
  DefaultCacheControlListener,
  EventDispatcher,
  HttpKernel,
  TraceableEventDispatcher,
  type Controller,
  type DispatchTracer,
  type KernelEventMap,
} from '@switchboard/http-kernel';
import { RouteCollection, Router, RouterListener } from '@switchboard/router';
import { serve } from '@switchboard/node-adapter';
import { CacheAttributeListener } from '../../src/index.js';

export interface TestRoute {
  controller: Controller;
  /** Route defaults (`_cache`…): the router copies them into the request attributes. */
  defaults?: Readonly<Record<string, unknown>>;
}

export interface TestApp {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly dispatcher: EventDispatcher<KernelEventMap>;
  close(): Promise<void>;
}

/**
 * A kernel as a host wires it — the cache attribute listener, the real router, error listener and
 * default Cache-Control rule — served by the real node adapter. Routes are keyed `METHOD /path/:id`.
 * With a `tracer`, the kernel dispatches through a `TraceableEventDispatcher`, as the profiler wires it.
 */
export async function startTestApp(routes: Readonly<Record<string, TestRoute>>, tracer?: DispatchTracer): Promise<TestApp> {
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
  const kernelDispatcher = tracer === undefined ? dispatcher : new TraceableEventDispatcher(dispatcher, tracer);
  const running = await serve(new HttpKernel({ dispatcher: kernelDispatcher }), { port: 0, handleSignals: false });
  return { origin: running.url, dispatcher, close: () => running.close() };
}
