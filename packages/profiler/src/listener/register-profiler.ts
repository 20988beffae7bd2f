import type { EventDispatcherInterface, KernelEventMap, Logger } from '@switchboard/http-kernel';
import { TraceableEventDispatcher } from '@switchboard/http-kernel/tracing';
import { DebugTokenLinkListener, type ProfileLinkGenerator } from './debug-token-link-listener.js';
import { ProfileSaveListener } from './profile-save-listener.js';
import { ProfilerLogContextListener } from './profiler-log-context-listener.js';
import { ProfilerTokenListener } from './profiler-token-listener.js';
import type { Profiler } from '../profiler.js';
import { ProfilingLogger } from '../recording/profiling-logger.js';

export interface RegisterProfilerOptions {
  /** Builds `x-debug-token-link`; pass the router's URL generator for route `_profiler`. */
  linkFor?: ProfileLinkGenerator;
  /**
   * Whether requests' scheme and host come from configuration (a public base URL) rather than from
   * the client's `Host` header. Without it, responses that shared caches may store get a path-only
   * `x-debug-token-link`. Default false.
   */
  originIsConfigured?: boolean;
}

/**
 * Plugs the profiler into a kernel's dispatcher (debug mode only): adds the four profiler
 * listeners to `dispatcher` and returns it wrapped in a `TraceableEventDispatcher` whose traces
 * the events and time panels read. Give the kernel the returned dispatcher; listeners may still
 * be added to either. The pages are mounted separately (`profilerRoutes`).
 */
export function registerProfiler(
  dispatcher: EventDispatcherInterface<KernelEventMap>,
  profiler: Profiler,
  options: RegisterProfilerOptions = {},
): TraceableEventDispatcher<KernelEventMap> {
  const recorder = profiler.recorder;
  dispatcher.addSubscriber(new ProfilerLogContextListener(recorder));
  dispatcher.addSubscriber(new ProfilerTokenListener(profiler));
  dispatcher.addSubscriber(new DebugTokenLinkListener(recorder, options.linkFor, options.originIsConfigured));
  dispatcher.addSubscriber(new ProfileSaveListener(profiler));
  const traceable = new TraceableEventDispatcher(dispatcher, (trace, event) => recorder.recordTrace(trace, event));
  // Lets a test client of the kernel (`@switchboard/testing`) read the profiles without being handed the profiler.
  Object.defineProperty(traceable, PROFILER_KEY, { value: profiler });
  return traceable;
}

/** Well-known key of the profiler on the dispatcher `registerProfiler` returns. */
const PROFILER_KEY = Symbol.for('@switchboard/profiler');

/** `logger`, with a copy of each record filed under the current request for the logger panel. */
export function profilingLogger(logger: Logger, profiler: Profiler): ProfilingLogger {
  return new ProfilingLogger(logger, profiler.recorder);
}
