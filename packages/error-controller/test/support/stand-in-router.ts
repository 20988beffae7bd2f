import {
  MethodNotAllowedHttpError,
  NotFoundHttpError,
  type Controller,
  type EventDispatcher,
  type KernelEventMap,
} from '@switchboard/http-kernel';

/**
 * Until `@switchboard/router` lands: an exact-path router at kernel.request 32 that skips requests
 * that already have a controller (the error sub-request) and fails with the router's messages.
 */
export function addStandInRouter(dispatcher: EventDispatcher<KernelEventMap>, routes: Record<string, Record<string, Controller>>): void {
  dispatcher.on(
    'kernel.request',
    (event) => {
      const request = event.request;
      if (request.attributes.has('_controller')) return;
      const byMethod = routes[request.path];
      const controller = byMethod?.[request.method];
      if (controller !== undefined) {
        request.attributes.set('_controller', controller);
        return;
      }
      const referer = request.headers.get('referer');
      const base = `No route found for "${request.method} ${request.url}"`;
      if (byMethod !== undefined) {
        const allowed = Object.keys(byMethod);
        throw new MethodNotAllowedHttpError(allowed, `${base}: Method Not Allowed (Allow: ${allowed.join(', ')})`);
      }
      throw new NotFoundHttpError(referer === undefined ? base : `${base} (from "${referer}")`, {
        cause: new Error(`No routes found for "${request.rawPath}/".`),
      });
    },
    32,
    { name: 'RouterListener.onKernelRequest' },
  );
}
