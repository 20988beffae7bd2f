/** How a limit counts: see docs/rate-limit.md for what each one lets through at the edges of a window. */
export type RateLimitPolicy = 'fixed_window' | 'sliding_window' | 'token_bucket';

export const RATE_LIMIT_POLICIES: readonly RateLimitPolicy[] = ['fixed_window', 'sliding_window', 'token_bucket'];

/**
 * One limit: `limit` hits per `intervalMs` milliseconds for each key.
 * - `fixed_window`: at most `limit` hits in a window that starts at the key's first hit;
 * - `sliding_window`: the previous window's hits count in proportion to how much of it is still
 *   inside the last `intervalMs` (no double burst at a window's edge);
 * - `token_bucket`: a bucket of `limit` tokens, refilled continuously at `limit` per `intervalMs`.
 */
export interface LimitDefinition {
  /** Names the limit in keys, headers (`RateLimit-Policy`) and the profiler: letters, digits, `_`, `-`, `.`. */
  readonly id: string;
  readonly policy: RateLimitPolicy;
  /** Hits (or tokens) per interval: a whole number ≥ 1. */
  readonly limit: number;
  /** Milliseconds: a whole number ≥ 1. */
  readonly intervalMs: number;
}

const ID = /^[A-Za-z0-9_.-]{1,64}$/;

/** Throws a `TypeError` naming what is wrong with a definition (a typo fails at startup, not on a request). */
export function assertLimitDefinition(definition: LimitDefinition): void {
  if (typeof definition !== 'object' || definition === null) throw new TypeError('A rate limit must be an object.');
  const { id, policy, limit, intervalMs } = definition;
  if (typeof id !== 'string' || !ID.test(id)) {
    throw new TypeError(`A rate limit id must be 1-64 letters, digits, "_", "-" or ".", got ${JSON.stringify(id)}.`);
  }
  if (!RATE_LIMIT_POLICIES.includes(policy)) {
    throw new TypeError(`Rate limit "${id}": policy must be one of ${RATE_LIMIT_POLICIES.join(', ')}, got ${JSON.stringify(policy)}.`);
  }
  if (!Number.isSafeInteger(limit) || limit < 1) {
    throw new TypeError(`Rate limit "${id}": limit must be a whole number ≥ 1, got ${JSON.stringify(limit)}.`);
  }
  if (!Number.isSafeInteger(intervalMs) || intervalMs < 1) {
    throw new TypeError(`Rate limit "${id}": intervalMs must be a whole number of milliseconds ≥ 1, got ${JSON.stringify(intervalMs)}.`);
  }
}
