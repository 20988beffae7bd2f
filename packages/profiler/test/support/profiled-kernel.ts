import {
  DefaultCacheControlListener,
  DisallowRobotsIndexingListener,
  EventDispatcher,
  HttpKernel,
  MemoryLogger,
  type Controller,
  type Logger,
  type KernelEventMap,
  type Request,
  type Response,
} from '@switchboard/http-kernel';
import { ErrorListener } from '@switchboard/error-controller';
import { RouteCollection, Router, RouterListener } from '@switchboard/router';
import {
  Profiler,
  ProfilerController,
  profilerRoutes,
  profilingLogger,
  registerProfiler,
  routerMatchExplainer,
  routerProfileLink,
  type ProfilerOptions,
} from '../../src/index.js';

/**
 * A real kernel wired as the example host wires it in debug mode: router (with the profiler's
 * routes mounted under /_profiler), error listener, response defaults and the profiler.
 * `routes` maps exact paths to controllers (route name = path). Logs go to `appLogger`, or else are kept in `logs`.
 */
export function profiledKernel(routes: Record<string, Controller> = {}, options: ProfilerOptions = {}, appLogger?: Logger) {
  const dispatcher = new EventDispatcher<KernelEventMap>();
  const logs = new MemoryLogger();
  const profiler = new Profiler(options);
  const logger = profilingLogger(appLogger ?? logs, profiler);

  const collection = new RouteCollection();
  for (const [path, controller] of Object.entries(routes)) collection.add(path, path, { controller });
  const pages = new ProfilerController(profiler, {
    explainRoute: (input) => routerMatchExplainer(router)(input),
  });
  collection.mount('/_profiler', profilerRoutes(pages));
  const router = new Router(collection);

  const traced = registerProfiler(dispatcher, profiler, { linkFor: routerProfileLink(router) });
  dispatcher.addSubscriber(new RouterListener(router, { logger, debug: true }));
  dispatcher.addSubscriber(new ErrorListener({ debug: true, logger }));
  dispatcher.addSubscriber(new DefaultCacheControlListener());
  dispatcher.addSubscriber(new DisallowRobotsIndexingListener());
  const kernel = new HttpKernel({ dispatcher: traced, logger });
  return {
    dispatcher,
    kernel,
    profiler,
    router,
    logs,
    logger,
    /** Handles a request the way an adapter does: handle, then terminate (which saves profiles). */
    async handle(request: Request): Promise<Response> {
      const response = await kernel.handle(request);
      await kernel.terminate(request, response);
      return response;
    },
  };
}

export function bodyText(response: Response): string {
  if (typeof response.body !== 'string') throw new Error('expected a string body');
  return response.body;
}
