/**
 * `@switchboard/profiler/collector` — what a package builds on to show its own panel: the
 * collector contract (what is recorded for one request), the panel contract (how that data is
 * shown), the escaping `html` template and the page components, and the default collectors and
 * panels with their data types. A package that owns request attributes (security, rate limits)
 * ships its own collector and panel on this entry; the app adds them to the defaults.
 * @module
 */
export type { CollectContext, DataCollector } from './collector/data-collector.js';
export { defaultCollectors } from './collector/default-collectors.js';
export type { RequestData, HeaderList } from './collector/request-collector.js';
export type { ExceptionData } from './collector/exception-collector.js';
export type { DispatchData, EventsData, ListenerCallData } from './collector/events-collector.js';
export type { RouterData } from './collector/router-collector.js';
export type { LoggerData, LogRecordData } from './collector/logger-collector.js';
export type { TimeData, TimelineEntry } from './collector/time-collector.js';
export type { MemoryData } from './collector/memory-collector.js';
export { describeValue } from './profile/describe-value.js';
export type { Redactor } from './profile/redactor.js';
export type { ChainRecording, RequestRecording, ResponseSnapshot } from './recording/request-recording.js';

export { defaultPanels } from './pages/panels/default-panels.js';
export type { PanelBadge, PanelContext, PanelView } from './pages/panels/panel-view.js';
export { card, jsonBlock, keyValueTable, plainValue, type Row } from './pages/markup/components.js';
export { html, SafeHtml } from './pages/markup/html.js';
