/**
 * `@switchboard/rate-limit/profiler` — the profiler's `rate_limit` panel: the collector of the
 * decisions taken for a request (keys other than addresses hashed) and its view. Add both to the
 * profiler's defaults: `collectors: [...defaultCollectors(), new RateLimitCollector()]` and
 * `panels: [...defaultPanels(), rateLimitPanel]`. Needs `@switchboard/profiler` (an optional peer).
 * @module
 */
export {
  RateLimitCollector,
  type RateLimitData,
  type RateLimitDecisionData,
  type RateLimitResultData,
} from './rate-limit-collector.js';
export { rateLimitPanel } from './rate-limit-panel.js';
