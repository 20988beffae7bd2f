import { CorsListener } from '@switchboard/cors';
import type { EventDispatcher, KernelEventMap } from '@switchboard/http-kernel';

/**
 * The cross-origin step (service-spec 5.4): origins `http(s)://localhost` or `http(s)://127.0.0.1`
 * with an optional port, anchored (the package default); browsers may send JSON with a bearer token.
 */
export function wireCors(host: { dispatcher: EventDispatcher<KernelEventMap> }): void {
  host.dispatcher.addSubscriber(
    new CorsListener({
      allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
      allowHeaders: ['content-type', 'authorization', 'x-requested-with'],
      exposeHeaders: ['location', 'x-debug-token', 'x-debug-token-link'],
      maxAge: 3600,
    }),
  );
}
