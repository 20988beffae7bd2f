import { CorsListener } from '@switchboard/cors';
import type { EventDispatcher, KernelEventMap } from '@switchboard/http-kernel';

/**
 * The cross-origin step: origins `http(s)://localhost` or `http(s)://127.0.0.1`
 * with an optional port, anchored, and the usual methods (both package defaults); browsers may send
 * JSON with a bearer token and read the Location of a created item and the profiler headers.
 */
export function wireCors(host: { dispatcher: EventDispatcher<KernelEventMap> }): void {
  host.dispatcher.addSubscriber(
    new CorsListener({
      allowHeaders: ['content-type', 'authorization', 'x-requested-with'],
      exposeHeaders: ['location', 'x-debug-token', 'x-debug-token-link'],
      maxAge: 3600,
    }),
  );
}
