import { ErrorListener } from '@switchboard/error-controller';
import { CacheAttributeListener } from '@switchboard/http-cache';
import { ArgumentResolver, MemoryLogger, type EventSubscriber, type KernelEventMap } from '@switchboard/http-kernel';
import { RequestPayloadValueResolver } from '@switchboard/payload';
import { type RouteCollection, Router, RouterListener } from '@switchboard/router';
import { serveKernel, testKernel, type ServedKernel, type TestKernel } from '../../../../test/kit/index.js';

export type ServedApp = TestKernel & ServedKernel & { readonly logger: MemoryLogger };

/**
 * `routes` behind the real router, error listener, cache attribute and payload resolver, with `subscribers` under
 * test (made with the app's logger when given as a function), over HTTP on 127.0.0.1.
 */
export async function serveRoutes(
  routes: RouteCollection,
  listeners: ReadonlyArray<EventSubscriber<KernelEventMap>> | ((logger: MemoryLogger) => ReadonlyArray<EventSubscriber<KernelEventMap>>),
): Promise<ServedApp> {
  const logger = new MemoryLogger();
  const subscribers = typeof listeners === 'function' ? listeners(logger) : listeners;
  const payload = new RequestPayloadValueResolver();
  const wired = testKernel({
    logger,
    argumentResolver: new ArgumentResolver([payload]),
    subscribers: [
      new RouterListener(new Router(routes)),
      ...subscribers,
      new ErrorListener({ debug: false, logger }),
      new CacheAttributeListener(),
      payload,
    ],
    textErrors: false,
    recordTerminate: true,
  });
  return { ...wired, logger, ...(await serveKernel(wired.kernel)) };
}
