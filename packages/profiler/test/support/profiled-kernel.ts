import {
  DefaultCacheControlListener,
  DisallowRobotsIndexingListener,
  EventDispatcher,
  HttpKernel,
  MemoryLogger,
  NotFoundHttpError,
  type Controller,
  type KernelEventMap,
  type Request,
  type Response,
} from '@switchboard/http-kernel';
import { ErrorListener } from '@switchboard/error-controller';
import { Profiler, ProfilerController, profilingLogger, registerProfiler, type ProfilerOptions } from '../../src/index.js';

/**
 * A real kernel wired as the example host wires it in debug mode — error listener, response
 * defaults, the profiler with its pages — with an exact-path stand-in router at kernel.request 32
 * (until `@switchboard/router` lands) that fails like the real one.
 */
export function profiledKernel(routes: Record<string, Controller> = {}, options: ProfilerOptions = {}) {
  const dispatcher = new EventDispatcher<KernelEventMap>();
  const logs = new MemoryLogger();
  const profiler = new Profiler(options);
  const logger = profilingLogger(logs, profiler);
  const pages = new ProfilerController(profiler);
  registerProfiler(dispatcher, profiler);
  dispatcher.on(
    'kernel.request',
    (event) => {
      const request = event.request;
      if (request.attributes.has('_controller')) return;
      if (request.path === '/_profiler/' || request.path === '/_profiler') {
        route(request, '_profiler_home', pages.home, {});
        return;
      }
      const profilerPage = /^\/_profiler\/([^/]+)$/.exec(request.path);
      if (profilerPage !== null) {
        route(request, '_profiler', pages.panel, { token: profilerPage[1]! });
        return;
      }
      const controller = routes[request.path];
      if (controller !== undefined) {
        route(request, request.path, controller, {});
        return;
      }
      const referer = request.headers.get('referer');
      const message = `No route found for "${request.method} ${request.url}"`;
      throw new NotFoundHttpError(referer === undefined ? message : `${message} (from "${referer}")`, {
        cause: new Error(`No routes found for "${request.rawPath}/".`),
      });
    },
    32,
    { name: 'RouterListener.onKernelRequest' },
  );
  dispatcher.addSubscriber(new ErrorListener({ debug: true, logger }));
  dispatcher.addSubscriber(new DefaultCacheControlListener());
  dispatcher.addSubscriber(new DisallowRobotsIndexingListener());
  const kernel = new HttpKernel({ dispatcher, logger });
  return {
    dispatcher,
    kernel,
    profiler,
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

function route(request: Request, name: string, controller: Controller, params: Record<string, string>): void {
  const attributes = request.attributes;
  attributes.set('_route', name);
  attributes.set('_controller', controller);
  attributes.set('_route_params', params);
  for (const [key, value] of Object.entries(params)) attributes.set(key, value);
  if (name.startsWith('_profiler')) attributes.set('_profile', false);
}

export function bodyText(response: Response): string {
  if (typeof response.body !== 'string') throw new Error('expected a string body');
  return response.body;
}
