/**
 * `@switchboard/security/profiler` — the profiler's `security` panel: the collector that reads what
 * the firewall decided for a request, and its view. Add both to the profiler's defaults:
 * `collectors: [...defaultCollectors(), new SecurityCollector()]` and
 * `panels: [...defaultPanels(), securityPanel]`. Needs `@switchboard/profiler` (an optional peer).
 * @module
 */
export { SecurityCollector, type SecurityData } from './security-collector.js';
export { securityPanel } from './security-panel.js';
