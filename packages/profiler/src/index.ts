/**
 * @switchboard/profiler — debug tokens on every response, collectors that record what happened
 * inside a request, bounded profile storage, and the `/_profiler` pages that show it.
 * @module
 */
export { Profiler, type ProfilerOptions } from './profiler.js';
export { registerProfiler, profilingLogger, type RegisterProfilerOptions } from './register-profiler.js';

export { Profile, summaryOf, type ProfileData, type ProfileSummary } from './profile/profile.js';
export { RecordedProfile, profileJson, profileSize, type BuiltProfile } from './profile/recorded-profile.js';
export { DEFAULT_TOKEN_LENGTH, generateToken, isValidToken } from './profile/token.js';
export {
  DEFAULT_REDACTED_HEADERS,
  DEFAULT_SECRET_NAMES,
  DEFAULT_WHOLE_SECRET_NAMES,
  REDACTED,
  Redactor,
  type RedactorOptions,
} from './profile/redactor.js';
export { DEFAULT_PROFILE_LIMITS, OVER_BUDGET, ProfileBudget, type ProfileLimits } from './profile/profile-budget.js';

export { ProfilerRecorder, PROFILE_ATTRIBUTE } from './recording/profiler-recorder.js';
export { ChainRecording, RequestRecording, type ResponseSnapshot } from './recording/request-recording.js';
export { ProfilingLogger } from './recording/profiling-logger.js';

export type { CollectContext, DataCollector } from './collector/data-collector.js';
export { defaultCollectors } from './collector/default-collectors.js';
export { RequestCollector, type HeaderList, type RequestData } from './collector/request-collector.js';
export { ExceptionCollector, type ExceptionData } from './collector/exception-collector.js';
export { EventsCollector, type DispatchData, type EventsData, type ListenerCallData } from './collector/events-collector.js';
export { RouterCollector, type RouterData } from './collector/router-collector.js';
export { LoggerCollector, type LoggerData, type LogRecordData } from './collector/logger-collector.js';
export { TimeCollector, type TimeData, type TimelineEntry } from './collector/time-collector.js';
export { MemoryCollector, type MemoryData } from './collector/memory-collector.js';
export { SecurityCollector, type SecurityData } from './collector/security-collector.js';
export {
  RateLimitCollector,
  type RateLimitData,
  type RateLimitDecisionData,
  type RateLimitResultData,
} from './collector/rate-limit-collector.js';

export {
  DEFAULT_SEARCH_LIMIT,
  DEFAULT_STORAGE_BOUNDS,
  matchesSearch,
  normaliseIp,
  resolveBounds,
  type ProfilerStorage,
  type ProfilerStorageStatus,
  type ProfileSearch,
  type StorageBounds,
} from './storage/profiler-storage.js';
export { DEFAULT_MEMORY_STORAGE_MAX_BYTES, MemoryProfilerStorage, type MemoryStorageBounds } from './storage/memory-profiler-storage.js';
export { FileProfilerStorage, type FileProfilerStorageOptions } from './storage/file-profiler-storage.js';
export { PROFILE_DROPPED_CHANNEL, type ProfileDroppedMessage, type WriteBoundsOptions } from './storage/write-behind-queue.js';

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
export { defaultPanels } from './pages/panels/default-panels.js';
export type { PanelBadge, PanelContext, PanelView } from './pages/panels/panel-view.js';
export type { RouteMatchExplainer, RouteMatchLogEntry } from './pages/panels/route-match-explainer.js';
export { html, SafeHtml } from './pages/html.js';
