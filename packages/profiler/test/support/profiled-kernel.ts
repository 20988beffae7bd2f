import {
  DisallowRobotsIndexingListener,
  EventDispatcher,
  MemoryLogger,
  type Controller,
  type Logger,
  type KernelEventMap,
  type Request,
  type Response,
} from '@switchboard/http-kernel';
import { ErrorListener } from '@switchboard/error-controller';
import { RouteCollection, Router, RouterListener } from '@switchboard/router';
import { testKernel } from '../../../../test/kit/index.js';
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
 * The test kit's kernel wired as the example host wires it in debug mode: router (with the profiler's
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
  const { kernel } = testKernel({
    dispatcher,
    subscribers: [
      new RouterListener(router, { logger, debug: true }),
      new ErrorListener({ debug: true, logger }),
      new DisallowRobotsIndexingListener(),
    ],
    textErrors: false,
    logger,
    decorate: () => traced,
  });
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
