/**
 * @switchboard/profiler — debug tokens on every response, collectors that record what happened
 * inside a request, bounded profile storage, and the `/_profiler` pages that show it. Collectors
 * and panels are built on `@switchboard/profiler/collector`; storages on `@switchboard/profiler/storage`.
 * @module
 */
export { Profiler, type ProfilerOptions } from './profiler.js';
export { registerProfiler, profilingLogger, type RegisterProfilerOptions } from './listener/register-profiler.js';

export { Profile } from './profile/profile.js';
export { DEFAULT_REDACTED_HEADERS, DEFAULT_SECRET_NAMES, DEFAULT_WHOLE_SECRET_NAMES, REDACTED } from './profile/redactor.js';
export type { ProfileLimits } from './profile/profile-budget.js';

export { DEFAULT_MEMORY_STORAGE_MAX_BYTES, MemoryProfilerStorage, type MemoryStorageBounds } from './storage/memory-profiler-storage.js';
export { FileProfilerStorage, type FileProfilerStorageOptions } from './storage/file-profiler-storage.js';

export { ProfilerLogContextListener } from './listener/profiler-log-context-listener.js';
export { ProfilerTokenListener, DEBUG_TOKEN_HEADER, PREVIOUS_DEBUG_TOKEN_HEADER } from './listener/profiler-token-listener.js';
export {
  DebugTokenLinkListener,
  DEBUG_ERROR_HEADER,
  DEBUG_TOKEN_LINK_HEADER,
  requestRelativeLink,
  type ProfileLinkGenerator,
} from './listener/debug-token-link-listener.js';
export { ProfileSaveListener } from './listener/profile-save-listener.js';

export { ProfilerController, type ProfilerPagesOptions } from './pages/profiler-controller.js';
export {
  PROFILER_HOME_ROUTE,
  PROFILER_ROUTE,
  profilerRoutes,
  routerMatchExplainer,
  routerProfileLink,
} from './pages/profiler-routes.js';
export { PROFILER_CSP } from './pages/layout.js';
export type { RouteMatchExplainer, RouteMatchLogEntry } from './pages/panels/route-match-explainer.js';
