import type { MaybePromise } from '@switchboard/http-kernel';
import { andThen, attempt } from '@switchboard/http-kernel/internal';
import { RateLimitStoreUnavailableError } from '../store/rate-limit-store-unavailable-error.js';
import { assertLimitDefinition, type LimitDefinition } from '../policy/limit-definition.js';
import type { RateLimitStore, StoreCheck, StoreOutcome } from '../store/rate-limit-store.js';
import type { LimitResult, RateLimitDecision } from './rate-limit-decision.js';

export interface RateLimiterOptions extends LimitDefinition {
  store: RateLimitStore;
  /** Milliseconds since the epoch; default `Date.now`. Tests pass a clock they move. */
  clock?: () => number;
  /**
   * While the store cannot answer (Redis down): `true` (the default) lets requests through, `false`
   * refuses them with a 503 (`RateLimitStoreUnavailableError`). The store logs the outage once.
   */
  failOpen?: boolean;
}

/** Longest key kept as is; a longer one is cut (a key is an address or an identifier, never that long). */
const MAX_KEY_LENGTH = 256;

/**
 * One limit applied per key: `consume(key)` takes one hit (or `cost`) and answers whether it was
 * allowed, with what remains. Synchronous with the memory store; a promise with Redis.
 */
export class RateLimiter {
  readonly definition: LimitDefinition;
  readonly store: RateLimitStore;
  readonly clock: () => number;
  readonly failOpen: boolean;

  constructor(options: RateLimiterOptions) {
    const { id, policy, limit, intervalMs } = options;
    this.definition = { id, policy, limit, intervalMs };
    assertLimitDefinition(this.definition);
    this.store = options.store;
    this.clock = options.clock ?? Date.now;
    this.failOpen = options.failOpen ?? true;
  }

  get id(): string {
    return this.definition.id;
  }

  consume(key: string, cost = 1): MaybePromise<RateLimitDecision> {
    return consumeAll(this, [this], [key], cost);
  }

  /** The state without taking anything (a cost of 0). */
  peek(key: string): MaybePromise<RateLimitDecision> {
    return consumeAll(this, [this], [key], 0);
  }

  /** Starts the limit afresh for this key (a successful login gives its attempts back). */
  reset(key: string): MaybePromise<void> {
    return this.store.reset([storeKey(this, key)]);
  }
}

/**
 * Several limiters checked as one (Symfony's compound limiter): one atomic step in their shared
 * store, counted only when every limiter allows; the strictest answers. Each limiter gets its own
 * key (`consume(['alice|203.0.113.9', '203.0.113.9'])`), or all the same one.
 */
export class CompoundRateLimiter {
  readonly limiters: readonly RateLimiter[];

  constructor(limiters: readonly RateLimiter[]) {
    if (limiters.length === 0) throw new TypeError('A compound rate limiter needs at least one limiter.');
    const [first] = limiters;
    if (limiters.some((limiter) => limiter.store !== first!.store || limiter.failOpen !== first!.failOpen)) {
      throw new TypeError('The limiters of a compound rate limiter must share one store and one failOpen choice (one atomic check).');
    }
    if (new Set(limiters.map((limiter) => limiter.id)).size !== limiters.length) {
      throw new TypeError('The limiters of a compound rate limiter need distinct ids.');
    }
    this.limiters = limiters;
  }

  consume(keys: string | readonly string[], cost = 1): MaybePromise<RateLimitDecision> {
    return consumeAll(this.limiters[0]!, this.limiters, this.#keysOf(keys), cost);
  }

  peek(keys: string | readonly string[]): MaybePromise<RateLimitDecision> {
    return consumeAll(this.limiters[0]!, this.limiters, this.#keysOf(keys), 0);
  }

  #keysOf(keys: string | readonly string[]): readonly string[] {
    if (typeof keys === 'string') return this.limiters.map(() => keys);
    if (keys.length !== this.limiters.length) throw new RangeError(`Expected ${this.limiters.length} keys, got ${keys.length}.`);
    return keys;
  }
}

function storeKey(limiter: RateLimiter, key: string): string {
  return `${limiter.id}:${key.length > MAX_KEY_LENGTH ? key.slice(0, MAX_KEY_LENGTH) : key}`;
}

function consumeAll(
  lead: RateLimiter,
  limiters: readonly RateLimiter[],
  keys: readonly string[],
  cost: number,
): MaybePromise<RateLimitDecision> {
  if (!Number.isSafeInteger(cost) || cost < 0) throw new RangeError(`cost must be a whole number ≥ 0, got ${String(cost)}.`);
  const checks: StoreCheck[] = limiters.map((limiter, index) => {
    const { policy, limit, intervalMs } = limiter.definition;
    return { key: storeKey(limiter, keys[index]!), policy, limit, intervalMs, cost };
  });
  // A store that throws or rejects is unavailable; a synchronous store keeps the decision synchronous.
  return attempt(
    () => andThen(lead.store.consume(checks, lead.clock()), (outcomes) => decisionOf(limiters, keys, outcomes, cost)),
    (error) => unavailable(lead, error),
  );
}

function decisionOf(
  limiters: readonly RateLimiter[],
  keys: readonly string[],
  outcomes: readonly StoreOutcome[],
  cost: number,
): RateLimitDecision {
  let allowed = true;
  let retryAfter = 0;
  for (const outcome of outcomes) {
    if (outcome.allowed) continue;
    allowed = false;
    retryAfter = Math.max(retryAfter, outcome.retryAfter);
  }
  const results: LimitResult[] = [];
  for (let index = 0; index < limiters.length; index++) {
    const outcome = outcomes[index]!;
    const { id, policy, limit, intervalMs } = limiters[index]!.definition;
    // A limit that would have allowed a refused compound check was not charged: its hit is given back.
    const remaining = !allowed && outcome.allowed ? outcome.remaining + cost : outcome.remaining;
    results.push({ id, key: keys[index]!, policy, limit, intervalMs, ...outcome, remaining });
  }
  return { allowed, retryAfter, results, storeUnavailable: false };
}

const OPEN: RateLimitDecision = Object.freeze({ allowed: true, retryAfter: 0, results: Object.freeze([]), storeUnavailable: true });

function unavailable(lead: RateLimiter, error: unknown): RateLimitDecision {
  if (lead.failOpen) return OPEN;
  throw new RateLimitStoreUnavailableError(error);
}
