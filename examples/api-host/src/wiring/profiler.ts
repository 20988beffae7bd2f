import type { EventDispatcher, EventDispatcherInterface, KernelEventMap, Logger } from '@switchboard/http-kernel';
import {
  FileProfilerStorage,
  MemoryProfilerStorage,
  Profiler,
  ProfilerController,
  profilerRoutes,
  profilingLogger,
  registerProfiler,
  routerMatchExplainer,
  routerProfileLink,
  type ProfilerStorage,
} from '@switchboard/profiler';
import { RedisProfilerStorage } from '@switchboard/profiler-redis';
import { Router, type RouteCollection } from '@switchboard/router';
import { ConfigError } from '../config.js';

/** What the profiler wiring needs from the app. */
export interface ProfilerHost {
  dispatcher: EventDispatcher<KernelEventMap>;
  /** Replaced by the profiler's traceable wrapper of `dispatcher`, which the kernel dispatches through. */
  kernelDispatcher: EventDispatcherInterface<KernelEventMap>;
  routes: RouteCollection;
  debug: boolean;
  /** Replaced by a logger that also files each record under the current request (logger panel). */
  logger: Logger;
  profilerPath: string | null;
  config?: { env: NodeJS.ProcessEnv; baseUrl?: string | null };
  /** The file and Redis storages write what is still queued there at shutdown. */
  onShutdown(cleanup: () => void | Promise<void>): void;
}

export const PROFILER_PATH = '/_profiler';
/** Longest wait for queued profiles at shutdown (at most 256 small files or Redis writes; well under a second when healthy). */
export const PROFILE_FLUSH_TIMEOUT_MS = 2_000;

/**
 * The debug profiler (docs/profiler.md), in debug mode only: with
 * debug off there are no `x-debug-*` headers and no `/_profiler` routes. Call it first, right
 * after the host is built: it wraps `host.logger`, so the logs of every later wiring reach the
 * profiles. Returns the profiler (`redact()` takes secrets known later), or `null` with debug off.
 *
 * Storage: in memory (500 profiles, 1 hour); files when `PROFILER_DIR` names a directory; Redis when
 * `PROFILER_REDIS_URL` names one, so that every host process behind a balancer finds every profile
 * (setting both is refused). The file and Redis storages queue writes in a bounded queue, and
 * shutdown writes what it still holds (bounded in time), so a token announced in a header is found
 * after a restart, or answers 404 if it was dropped.
 */
export function wireProfiler(host: ProfilerHost): Profiler | null {
  if (!host.debug) return null;
  const profiler = new Profiler({ storage: profileStorage(host) });
  host.logger = profilingLogger(host.logger, profiler);

  // The app's router is compiled last, from the same collection; the profiler builds its own
  // from that collection when it first needs one (a link, a router panel): same routes, same order.
  let router: Router | null = null;
  const appRouter = (): Router => (router ??= new Router(host.routes));
  const pages = new ProfilerController(profiler, {
    basePath: PROFILER_PATH,
    explainRoute: (input) => routerMatchExplainer(appRouter())(input),
  });
  host.routes.mount(PROFILER_PATH, profilerRoutes(pages));
  host.kernelDispatcher = registerProfiler(host.dispatcher, profiler, {
    linkFor: (token, request) => routerProfileLink(appRouter())(token, request),
    // With a base URL the link's origin is ours; without one it is the client's Host header.
    originIsConfigured: (host.config?.baseUrl ?? null) !== null,
  });
  host.profilerPath = PROFILER_PATH;
  return profiler;
}

function profileStorage(host: ProfilerHost): ProfilerStorage {
  const directory = host.config?.env['PROFILER_DIR'] ?? '';
  const redisUrl = host.config?.env['PROFILER_REDIS_URL'] ?? '';
  if (directory !== '' && redisUrl !== '')
    throw new ConfigError('Set PROFILER_DIR (profiles in files) or PROFILER_REDIS_URL (profiles in Redis), not both.');
  if (redisUrl !== '') return redisStorage(host, redisUrl);
  if (directory === '') return new MemoryProfilerStorage();
  const storage = new FileProfilerStorage({ directory, logger: host.logger.child({ channel: 'profiler' }) });
  host.onShutdown(async () => {
    await storage.flush(PROFILE_FLUSH_TIMEOUT_MS);
  });
  return storage;
}

function redisStorage(host: ProfilerHost, url: string): RedisProfilerStorage {
  let storage: RedisProfilerStorage;
  try {
    storage = new RedisProfilerStorage({ url, logger: host.logger.child({ channel: 'profiler' }) });
  } catch {
    // The URL itself stays out of the message: it may hold a password.
    throw new ConfigError('PROFILER_REDIS_URL must be a URL such as redis://127.0.0.1:6379.');
  }
  // Writes what waits, then closes the connection (which would otherwise keep the process alive).
  host.onShutdown(() => storage.close(PROFILE_FLUSH_TIMEOUT_MS));
  return storage;
}
