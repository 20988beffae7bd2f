import { defineController, EventDispatcher, JsonResponse, MemoryLogger, type KernelEventMap, type Request } from '@switchboard/http-kernel';
import { ErrorListener } from '@switchboard/error-controller';
import { Profiler, ProfilerController, profilerRoutes, profilingLogger, registerProfiler, routerProfileLink } from '@switchboard/profiler';
import type { ProfilerStorage } from '@switchboard/profiler/storage';
import { RouteCollection, Router, RouterListener } from '@switchboard/router';
import { serveKernel, testKernel, type ServedKernel } from '../../../../test/kit/index.js';

/**
 * A real app in debug mode, served by the test kit (node adapter, a free 127.0.0.1 port): `/hello` logs a line
 * with a configured secret in it, the profiler pages are under `/_profiler`.
 */
export async function serveProfiledApp(
  storage: ProfilerStorage,
  secrets: readonly string[] = [],
): Promise<{ server: ServedKernel; profiler: Profiler; logs: MemoryLogger }> {
  const dispatcher = new EventDispatcher<KernelEventMap>();
  const profiler = new Profiler({ storage, secrets });
  const logs = new MemoryLogger();
  const logger = profilingLogger(logs, profiler);
  const routes = new RouteCollection().add('hello', '/hello', {
    controller: defineController(['request'], (request: Request) => {
      logger.info({ uri: request.uri }, `hello, signing with ${secrets.join(' and ')}`);
      return new JsonResponse({ hello: 'world' });
    }),
  });
  routes.mount('/_profiler', profilerRoutes(new ProfilerController(profiler)));
  const router = new Router(routes);
  registerProfiler(dispatcher, profiler, { linkFor: routerProfileLink(router) });
  const { kernel } = testKernel({
    dispatcher,
    subscribers: [new RouterListener(router, { logger, debug: true }), new ErrorListener({ debug: true, logger })],
    textErrors: false,
    logger,
  });
  const server = await serveKernel(kernel, { logger });
  return { server, profiler, logs };
}
