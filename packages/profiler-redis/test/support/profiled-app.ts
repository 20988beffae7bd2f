import {
  defineController,
  EventDispatcher,
  HttpKernel,
  JsonResponse,
  MemoryLogger,
  type KernelEventMap,
  type Request,
} from '@switchboard/http-kernel';
import { ErrorListener } from '@switchboard/error-controller';
import { serve, type RunningServer } from '@switchboard/node-adapter';
import {
  Profiler,
  ProfilerController,
  profilerRoutes,
  profilingLogger,
  registerProfiler,
  routerProfileLink,
  type ProfilerStorage,
} from '@switchboard/profiler';
import { RouteCollection, Router, RouterListener } from '@switchboard/router';

/**
 * A real app in debug mode, served over node:http on a free 127.0.0.1 port: `/hello` logs a line
 * with a configured secret in it, the profiler pages are under `/_profiler`.
 */
export async function serveProfiledApp(
  storage: ProfilerStorage,
  secrets: readonly string[] = [],
): Promise<{ server: RunningServer; profiler: Profiler; logs: MemoryLogger }> {
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
  dispatcher.addSubscriber(new RouterListener(router, { logger, debug: true }));
  dispatcher.addSubscriber(new ErrorListener({ debug: true, logger }));
  const server = await serve(new HttpKernel({ dispatcher, logger }), { port: 0, handleSignals: false, logger });
  return { server, profiler, logs };
}
