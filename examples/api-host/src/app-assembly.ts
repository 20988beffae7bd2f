import {
  ArgumentResolver,
  EventDispatcher,
  HttpKernel,
  type EventDispatcherInterface,
  type KernelEventMap,
  type Logger,
} from '@switchboard/http-kernel';
import {
  ProfilerController,
  profilerRoutes,
  profilingLogger,
  registerProfiler,
  routerMatchExplainer,
  routerProfileLink,
  type Profiler,
} from '@switchboard/profiler';
import { RouteCollection, Router, RouterListener } from '@switchboard/router';
import type { AppConfig } from './config.js';
import { hostPanels, PROFILER_PATH, type WiredProfiler } from './wiring/profiler.js';
import type { HostContext, Wiring } from './wiring/wiring.js';

/** What `assemble` builds from the wirings. */
export interface AssembledApp {
  readonly dispatcher: EventDispatcher<KernelEventMap>;
  readonly kernel: HttpKernel;
  /** Every route, in matching order. */
  readonly routes: RouteCollection;
  /** The one router compiled from `routes`: the router listener, the profiler's links and its router panel use it. */
  readonly router: Router;
  /** Where the profiler answers (`/_profiler`), or `null` with debug off. */
  readonly profilerPath: string | null;
  /** Runs every wiring's shutdown work, the last wiring's first; `main.ts` calls it once the server stopped. */
  shutdown(): Promise<void>;
}

/**
 * Puts the wirings' parts together: one route collection compiled into one router, one
 * dispatcher holding every subscriber and the router listener (kernel.request 32), one argument
 * resolver, one kernel. In debug mode the profiler is put around all of it: its logger (from the
 * start, so that the wirings' records reach the profiles), its pages at `/_profiler` (tried
 * first), its listeners, and its tracing of the dispatcher, which the kernel dispatches through.
 *
 * It is also the `HostContext` the wirings receive: its `routes` are the app's.
 */
export class AppAssembly implements HostContext {
  readonly debug: boolean;
  readonly env: NodeJS.ProcessEnv;
  readonly logger: Logger;
  readonly routes = new RouteCollection();
  readonly #profiler: WiredProfiler | null;

  constructor(
    readonly config: AppConfig,
    logger: Logger,
    profiler: WiredProfiler | null,
  ) {
    this.debug = config.debug;
    this.env = config.env;
    this.logger = profiler === null ? logger : profilingLogger(logger, profiler.profiler);
    this.#profiler = profiler;
  }

  /** Called once, after every wiring: adds their parts in the list's order, which is the order routes are tried in and equal-priority listeners run in. */
  assemble(wirings: readonly Wiring[]): AssembledApp {
    const profiler = this.#profiler;
    const parts = profiler === null ? wirings : [profiler, ...wirings];
    // The pages need the router that their own routes are compiled into: it exists before any page is served.
    let router: Router | undefined;
    if (profiler !== null)
      this.routes.mount(
        PROFILER_PATH,
        profilerPages(profiler.profiler, () => router!),
      );
    for (const { routes = [] } of parts) for (const route of routes) this.routes.add(route);
    router = new Router(this.routes);

    const dispatcher = new EventDispatcher<KernelEventMap>();
    const kernelDispatcher = profiler === null ? dispatcher : this.#profile(dispatcher, profiler.profiler, router, parts);
    for (const { subscribers = [] } of parts) for (const subscriber of subscribers) dispatcher.addSubscriber(subscriber);
    dispatcher.addSubscriber(new RouterListener(router, { debug: this.debug, logger: this.logger }));

    const argumentResolver = new ArgumentResolver(parts.flatMap(({ valueResolvers = [] }) => valueResolvers));
    const cleanups = parts.flatMap(({ onShutdown }) => (onShutdown === undefined ? [] : [onShutdown])).reverse();
    return {
      dispatcher,
      kernel: new HttpKernel({ dispatcher: kernelDispatcher, logger: this.logger, argumentResolver }),
      routes: this.routes,
      router,
      profilerPath: profiler === null ? null : PROFILER_PATH,
      async shutdown() {
        for (const cleanup of cleanups.splice(0)) await cleanup();
      },
    };
  }

  /** The profiler's listeners on `dispatcher`, and its tracing wrapper of it. */
  #profile(
    dispatcher: EventDispatcher<KernelEventMap>,
    profiler: Profiler,
    router: Router,
    parts: readonly Wiring[],
  ): EventDispatcherInterface<KernelEventMap> {
    profiler.redact(parts.flatMap(({ secrets = [] }) => secrets));
    return registerProfiler(dispatcher, profiler, {
      linkFor: routerProfileLink(router),
      // With a base URL the link's origin is ours; without one it is the client's Host header.
      originIsConfigured: this.config.baseUrl !== null,
    });
  }
}

/** The profiler's pages; the router panel replays a request's matching on the app's router. */
function profilerPages(profiler: Profiler, router: () => Router): RouteCollection {
  const pages = new ProfilerController(profiler, {
    basePath: PROFILER_PATH,
    panels: hostPanels(),
    explainRoute: (input) => routerMatchExplainer(router())(input),
  });
  return profilerRoutes(pages);
}
