import { ErrorListener } from '@switchboard/error-controller';
import {
  ArgumentResolver,
  DefaultCacheControlListener,
  EventDispatcher,
  HttpKernel,
  TraceableEventDispatcher,
  type Controller,
  type DispatchTracer,
  type KernelEventMap,
} from '@switchboard/http-kernel';
import { RouteCollection, Router, RouterListener } from '@switchboard/router';
import { RequestPayloadValueResolver, type RequestPayloadOptions } from '../../src/index.js';
import { serveKernel, type ServedKernel } from './serve-kernel.js';

/** `'POST /items'` → controller; the key is also the route name (the `_route` attribute). */
export type RouteTable = Readonly<Record<string, Controller>>;

export interface TestApp extends ServedKernel {
  readonly dispatcher: EventDispatcher<KernelEventMap>;
}

/**
 * A kernel as a host wires it — payload resolver in both of its roles, the real router, error
 * listener and default Cache-Control — served by the real node adapter.
 */
export async function startTestApp(routes: RouteTable, options: RequestPayloadOptions = {}, tracer?: DispatchTracer): Promise<TestApp> {
  const { kernel, dispatcher } = buildTestKernel(routes, options, tracer);
  const served = await serveKernel(kernel);
  return { ...served, dispatcher };
}

/** With a `tracer`, the kernel dispatches through a `TraceableEventDispatcher`, as the profiler wires it. */
export function buildTestKernel(
  routes: RouteTable,
  options: RequestPayloadOptions,
  tracer?: DispatchTracer,
): { kernel: HttpKernel; dispatcher: EventDispatcher<KernelEventMap> } {
  const collection = new RouteCollection();
  for (const [key, controller] of Object.entries(routes)) {
    const [method, path] = key.split(' ') as [string, string];
    collection.add(key, path, { methods: [method], controller });
  }
  const dispatcher = new EventDispatcher<KernelEventMap>();
  const payload = new RequestPayloadValueResolver(options);
  dispatcher.addSubscriber(payload);
  dispatcher.addSubscriber(new RouterListener(new Router(collection)));
  dispatcher.addSubscriber(new ErrorListener({ debug: false }));
  dispatcher.addSubscriber(new DefaultCacheControlListener());
  const kernelDispatcher = tracer === undefined ? dispatcher : new TraceableEventDispatcher(dispatcher, tracer);
  return { kernel: new HttpKernel({ dispatcher: kernelDispatcher, argumentResolver: new ArgumentResolver([payload]) }), dispatcher };
}
