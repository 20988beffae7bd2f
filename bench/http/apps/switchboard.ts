// Switchboard: kernel, router, error listener (problem+json for the 404), default cache-control,
// served by the node adapter. `debug` adds what debug mode adds: the robots header, debug error
// pages and headers, and the profiler (tracing, tokens, a profile per request saved in memory on
// kernel.terminate).
import type { RequestListener } from 'node:http';
import { ErrorListener } from '@switchboard/error-controller';
import {
  DefaultCacheControlListener,
  DisallowRobotsIndexingListener,
  EventDispatcher,
  HttpKernel,
  JsonResponse,
  defineController,
  nullLogger,
  type KernelEventMap,
} from '@switchboard/http-kernel';
import { createRequestListener } from '@switchboard/node-adapter';
import { Profiler, registerProfiler } from '@switchboard/profiler';
import { RouteCollection, Router, RouterListener } from '@switchboard/router';
import { HELLO_BODY, HELLO_PATH } from '../contract.js';

export function createListener({ debug = false }: { debug?: boolean } = {}): RequestListener {
  const dispatcher = new EventDispatcher<KernelEventMap>();
  const routes = new RouteCollection().add('hello', HELLO_PATH, {
    methods: ['GET'],
    controller: defineController([], () => new JsonResponse(HELLO_BODY), 'hello'),
  });
  dispatcher.addSubscriber(new RouterListener(new Router(routes), { debug }));
  dispatcher.addSubscriber(new ErrorListener({ debug, logger: nullLogger }));
  dispatcher.addSubscriber(new DefaultCacheControlListener());
  if (!debug) return createRequestListener(new HttpKernel({ dispatcher })) as RequestListener;
  dispatcher.addSubscriber(new DisallowRobotsIndexingListener());
  // The kernel dispatches through the profiler's tracing decorator, as a debug host does.
  const traced = registerProfiler(dispatcher, new Profiler());
  return createRequestListener(new HttpKernel({ dispatcher: traced })) as RequestListener;
}
