import {
  EventDispatcher,
  HttpKernel,
  NotFoundHttpError,
  Response,
  type Controller,
  type EventSubscriber,
  type KernelEventMap,
} from '@switchboard/http-kernel';
import { statusOf } from '@switchboard/http-kernel/internal';
import { serve } from '@switchboard/node-adapter';

/**
 * A kernel served by the real node adapter on 127.0.0.1 (any free port), with a minimal
 * exact-path router at kernel.request 32 (the router package is not needed to test CORS).
 * Test support only.
 */
export interface KernelServer {
  readonly url: string;
  close(): Promise<void>;
}

export async function startKernelServer(
  subscribers: ReadonlyArray<EventSubscriber<KernelEventMap>>,
  routes: Record<string, Controller>,
): Promise<KernelServer> {
  const dispatcher = new EventDispatcher<KernelEventMap>();
  for (const subscriber of subscribers) dispatcher.addSubscriber(subscriber);
  dispatcher.addListener(
    'kernel.request',
    (event) => {
      const controller = routes[`${event.request.method} ${event.request.path}`];
      if (controller === undefined) throw new NotFoundHttpError(`No route found for "${event.request.method} ${event.request.url}"`);
      event.request.attributes.set('_controller', controller);
    },
    32,
    { name: 'TestRouter' },
  );
  // Stands in for the error controller: every error becomes a plain-text answer that still
  // goes through kernel.response, as error pages do.
  dispatcher.addListener(
    'kernel.exception',
    (event) => {
      const status = statusOf(event.throwable);
      event.setResponse(new Response(`${status}`, status, { 'content-type': 'text/plain; charset=UTF-8' }));
    },
    -128,
    { name: 'TestErrorResponder' },
  );
  const running = await serve(new HttpKernel({ dispatcher }), { port: 0, handleSignals: false });
  return { url: running.url, close: () => running.close() };
}
