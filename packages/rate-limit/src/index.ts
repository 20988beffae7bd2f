/**
 * @switchboard/rate-limit — rate limits (fixed window, sliding window, token bucket, compound) in
 * memory or in Redis (`@switchboard/rate-limit/redis`), the per-client limiter (`kernel.request`
 * 300) and the per-route `_rate_limit` limiter (`kernel.controller_arguments` 15), answering 429
 * with `Retry-After` and the IETF `RateLimit` / `RateLimit-Policy` fields.
 * @module
 */
export { assertLimitDefinition, RATE_LIMIT_POLICIES, type LimitDefinition, type RateLimitPolicy } from './policy/limit-definition.js';
export type { RateLimitStore, StoreCheck, StoreOutcome } from './store/rate-limit-store.js';
export { MemoryStore, type MemoryStoreOptions } from './store/memory-store.js';
export { assertIpv6Prefix, clientAddressKey, DEFAULT_IPV6_PREFIX } from './key/client-address-key.js';
export { CompoundRateLimiter, RateLimiter, type RateLimiterOptions } from './limiter/rate-limiter.js';
export type { LimitResult, RateLimitDecision } from './limiter/rate-limit-decision.js';
export { TooManyRequestsHttpError } from './http/too-many-requests-http-error.js';
export { RateLimitStoreUnavailableError } from './store/rate-limit-store-unavailable-error.js';
export { rateLimitHeaders, secondsOf, setRateLimitHeaders } from './http/rate-limit-headers.js';
export { decisionOf, recordDecision, type RateLimitSource, type RecordedDecision } from './listener/decision-record.js';
export { ClientRateLimitListener, type ClientRateLimitListenerOptions } from './listener/client-rate-limit-listener.js';
export { RouteRateLimitListener, type RouteRateLimitListenerOptions } from './listener/route-rate-limit-listener.js';
export {
  assertRouteRateLimit,
  defineRateLimit,
  rateLimitOf,
  type RouteRateLimit,
  type RouteRateLimitDeclaration,
} from './listener/route-rate-limit.js';
export { RATE_LIMIT_REFUSED_CHANNEL, type RateLimitRefusedMessage } from './listener/refusal.js';
