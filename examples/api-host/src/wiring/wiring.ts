import type { EventSubscriber, KernelEventMap, Logger, ValueResolver } from '@switchboard/http-kernel';
import type { Route } from '@switchboard/router';
import type { AppConfig } from '../config.js';

/** What every wiring receives: the configuration, the mode, the logger, and the app's routes to read while serving. */
export interface HostContext {
  readonly config: AppConfig;
  /** `config.debug`: the profiler, detailed error pages, `x-debug-*` headers. */
  readonly debug: boolean;
  /** `config.env`: each wiring reads its own variables there (`DATABASE_URL`, `JWT_*`…). */
  readonly env: NodeJS.ProcessEnv;
  /** In debug mode it also files each record under the current request's profile (logger panel). */
  readonly logger: Logger;
  /** Every route of the app, in matching order: complete once the app is assembled, so read it while serving. */
  readonly routes: { all(): readonly Route[] };
}

/**
 * What one wiring adds to the app. `AppAssembly.assemble` takes the wirings in a list and adds
 * their parts in its order: that order is the order routes are tried in, and listeners of equal
 * priority run in.
 */
export interface Wiring {
  /** Registered on the app's dispatcher. */
  readonly subscribers?: ReadonlyArray<EventSubscriber<KernelEventMap>>;
  /** Added to the app's routes. */
  readonly routes?: Iterable<Route>;
  /** Asked by the kernel's argument resolver for controller arguments, before the defaults. */
  readonly valueResolvers?: readonly ValueResolver[];
  /** Values the profiler redacts wherever they occur in a profile. */
  readonly secrets?: readonly string[];
  /** Run when the app shuts down; the last wiring's first. */
  readonly onShutdown?: () => void | Promise<void>;
}
