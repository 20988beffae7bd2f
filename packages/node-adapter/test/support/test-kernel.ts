import {
  EventDispatcher,
  HttpKernel,
  NotFoundHttpError,
  Response,
  type Controller,
  type KernelEventMap,
  type Request,
} from '@switchboard/http-kernel';
import { statusOf } from '@switchboard/http-kernel/internal';

export type Route = (request: Request) => Response | Promise<Response>;

/**
 * A real HttpKernel with a minimal path → controller table standing in for the router, and a
 * kernel.exception listener that answers `<status> <message>` as text (standing in for the error
 * controller). Every terminate call is recorded.
 */
export function createTestKernel(routes: Record<string, Route>, options: { terminateListener?: boolean } = {}) {
  const dispatcher = new EventDispatcher<KernelEventMap>();
  const terminated: Array<{ request: Request; response: Response }> = [];
  const handled: Request[] = [];
  dispatcher.on(
    'kernel.request',
    (event) => {
      handled.push(event.request);
      const route = routes[event.request.path];
      if (route === undefined) throw new NotFoundHttpError(`No route found for "${event.request.method} ${event.request.url}"`);
      event.request.attributes.set('_controller', ((request: Request) => route(request)) as Controller);
    },
    32,
  );
  dispatcher.on(
    'kernel.exception',
    (event) => {
      const error = event.throwable;
      const status = statusOf(error);
      event.setResponse(
        new Response(`${status} ${error instanceof Error ? error.message : String(error)}`, status, { 'content-type': 'text/plain' }),
      );
    },
    -128,
  );
  if (options.terminateListener !== false) {
    dispatcher.on('kernel.terminate', (event) => {
      terminated.push({ request: event.request, response: event.response });
    });
  }
  const kernel = new HttpKernel({ dispatcher });
  return { kernel, dispatcher, terminated, handled };
}
