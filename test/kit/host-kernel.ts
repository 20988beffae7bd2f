import { ErrorListener } from '@switchboard/error-controller';
import type { EventSubscriber, KernelEventMap } from '@switchboard/http-kernel';
import { TraceableEventDispatcher, type DispatchTracer } from '@switchboard/http-kernel/tracing';
import { RouteCollection, Router, RouterListener } from '@switchboard/router';
import { testKernel, type TestKernel, type TestKernelOptions } from './kernel.js';
import { parseRouteKey, type RouteTable } from './route-table.js';
import { serveKernel, type TestServeOptions, type TestServer } from './serve.js';

/**
 * The real router on a route table: `'METHOD /path/:id'` (or `'/path/:id'`, any method) → a
 * controller or a route; the key is the route name.
 */
export function tableRouter(routes: RouteTable): Router {
  const collection = new RouteCollection();
  for (const [key, entry] of Object.entries(routes)) {
    const route = typeof entry === 'function' ? { controller: entry } : entry;
    const { method, path } = parseRouteKey(key);
    collection.add(route.name ?? key, path, {
      ...(method === null ? {} : { methods: [method] }),
      controller: route.controller,
      defaults: route.defaults ?? {},
    });
  }
  return new Router(collection);
}

export interface HostKernelOptions extends Pick<TestKernelOptions, 'logger' | 'setup' | 'argumentResolver' | 'controllerResolver'> {
  /** The listeners under test, registered between the router and the error listener. */
  readonly subscribers?: ReadonlyArray<EventSubscriber<KernelEventMap>>;
  /** With a tracer, the kernel dispatches through a `TraceableEventDispatcher`, as the profiler wires it. */
  readonly tracer?: DispatchTracer;
  /** The error listener's debug mode; default false (production pages). */
  readonly debug?: boolean;
}

/**
 * A kernel as a host wires it: the real router on `routes`, the listeners under test, the real
 * error listener and the default Cache-Control rule. Only for packages that may depend on the
 * router and the error controller in their tests (not those two, nor the kernel and the adapter).
 */
export function hostKernel(routes: RouteTable, options: HostKernelOptions = {}): TestKernel {
  const { subscribers = [], tracer, debug = false, ...rest } = options;
  return testKernel({
    ...rest,
    subscribers: [
      new RouterListener(tableRouter(routes)),
      ...subscribers,
      new ErrorListener({ debug, ...(rest.logger === undefined ? {} : { logger: rest.logger }) }),
    ],
    textErrors: false,
    ...(tracer === undefined ? {} : { decorate: (dispatcher) => new TraceableEventDispatcher(dispatcher, tracer) }),
  });
}

/** `hostKernel(routes, options)`, served by the node adapter on 127.0.0.1. */
export async function startHostServer(
  routes: RouteTable,
  options: HostKernelOptions & { readonly serve?: TestServeOptions } = {},
): Promise<TestServer> {
  const wired = hostKernel(routes, options);
  return { ...wired, ...(await serveKernel(wired.kernel, options.serve)) };
}

export type { TestKernel, TestServer };
