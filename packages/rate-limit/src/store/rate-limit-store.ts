import type { MaybePromise } from '@switchboard/http-kernel';
import type { RateLimitPolicy } from '../policy/limit-definition.js';

/** One limit to apply to one key, as a store receives it. */
export interface StoreCheck {
  /** The store's key: the limit's id and the caller's key, already joined. */
  readonly key: string;
  readonly policy: RateLimitPolicy;
  readonly limit: number;
  readonly intervalMs: number;
  /** Hits (tokens) this check takes; 0 only looks. */
  readonly cost: number;
}

/** What a store answers for one check. Durations are milliseconds from `now`. */
export interface StoreOutcome {
  readonly allowed: boolean;
  /** Hits still allowed after this one (after it was counted, when it was allowed). */
  readonly remaining: number;
  /** Until the current window ends (a bucket: until it is full again). */
  readonly resetAfter: number;
  /** Until a check of the same cost would be allowed; 0 when allowed. */
  readonly retryAfter: number;
}

/**
 * Where limits keep their counts. `consume` is all or nothing: the checks are counted only when
 * every one allows, in one atomic step (one Redis script), so a refused request takes no token from
 * the limits that would have let it through and parallel checks cannot overrun a limit.
 */
export interface RateLimitStore {
  consume(checks: readonly StoreCheck[], now: number): MaybePromise<readonly StoreOutcome[]>;
  /** Forgets these keys (a limit starts afresh for them). */
  reset(keys: readonly string[]): MaybePromise<void>;
}
