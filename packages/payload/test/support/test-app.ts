import { ErrorListener } from '@switchboard/error-controller';
import {
  ArgumentResolver,
  DefaultCacheControlListener,
  EventDispatcher,
  HttpKernel,
  NotFoundHttpError,
  type Controller,
  type KernelEventMap,
} from '@switchboard/http-kernel';
import { RequestPayloadValueResolver, type RequestPayloadOptions } from '../../src/index.js';
import { serveKernel, type ServedKernel } from './serve-kernel.js';

/** `'POST /items'` → controller. */
export type RouteTable = Readonly<Record<string, Controller>>;

export interface TestApp extends ServedKernel {
  readonly dispatcher: EventDispatcher<KernelEventMap>;
}

/**
 * A kernel as a host wires it — payload resolver in both of its roles, the real error listener,
 * the default Cache-Control — served over node:http. Routing is an exact `METHOD path` lookup in
 * a kernel.request listener at the router's priority (32).
 */
export async function startTestApp(routes: RouteTable, options: RequestPayloadOptions = {}): Promise<TestApp> {
  const { kernel, dispatcher } = buildTestKernel(routes, options);
  const served = await serveKernel(kernel);
  return { ...served, dispatcher };
}

export function buildTestKernel(routes: RouteTable, options: RequestPayloadOptions): { kernel: HttpKernel; dispatcher: EventDispatcher<KernelEventMap> } {
  const dispatcher = new EventDispatcher<KernelEventMap>();
  const payload = new RequestPayloadValueResolver(options);
  dispatcher.addSubscriber(payload);
  dispatcher.addSubscriber(new ErrorListener({ debug: false }));
  dispatcher.addSubscriber(new DefaultCacheControlListener());
  dispatcher.on(
    'kernel.request',
    (event) => {
      if (event.request.attributes.has('_controller')) return;
      const key = `${event.request.method} ${event.request.path}`;
      const controller = routes[key];
      if (controller === undefined) throw new NotFoundHttpError(`No route found for "${key}".`);
      event.request.attributes.set('_route', key).set('_controller', controller);
    },
    32,
    { name: 'TestRoutingListener.onKernelRequest' },
  );
  return { kernel: new HttpKernel({ dispatcher, argumentResolver: new ArgumentResolver([payload]) }), dispatcher };
}
