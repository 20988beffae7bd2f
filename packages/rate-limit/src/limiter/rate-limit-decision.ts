import type { RateLimitPolicy } from '../policy/limit-definition.js';

/** One limit's answer for one key. Durations are milliseconds. */
export interface LimitResult {
  /** The limit's id. */
  readonly id: string;
  /** The caller's key (a client address, a user identifier…): the profiler hashes any that is not an address. */
  readonly key: string;
  readonly policy: RateLimitPolicy;
  readonly limit: number;
  readonly intervalMs: number;
  readonly allowed: boolean;
  readonly remaining: number;
  readonly resetAfter: number;
  readonly retryAfter: number;
}

/** A limiter's answer: allowed only when every limit allows (the strictest answers). */
export interface RateLimitDecision {
  readonly allowed: boolean;
  /** Milliseconds until the refusing limits would all allow; 0 when allowed. */
  readonly retryAfter: number;
  readonly results: readonly LimitResult[];
  /**
   * The store could not answer and the limiter fails open: allowed, with no results. (A limiter
   * that fails closed throws `RateLimitStoreUnavailableError` instead.)
   */
  readonly storeUnavailable: boolean;
}
