import { lifetimeOf, step, type LimitState, type Step } from './policy-steps.js';
import type { RateLimitStore, StoreCheck, StoreOutcome } from './rate-limit-store.js';

export interface MemoryStoreOptions {
  /**
   * Most keys kept (default 100,000, a few tens of MiB at most). Past it the least recently used
   * key is dropped and counted (`evictions`): that key starts afresh, so a flood of distinct keys
   * (addresses) can cost one forgotten count each, never unbounded memory.
   */
  maxKeys?: number;
}

interface Entry {
  state: LimitState;
  /** After this time the state says nothing more than a fresh one. */
  expiresAt: number;
}

/**
 * Counts in this process's memory: for one process, and tests. Several processes (a cluster) each
 * count on their own, multiplying every limit: use the Redis store there (`@switchboard/rate-limit/redis`).
 * Synchronous: a check costs a map lookup and a few sums.
 */
export class MemoryStore implements RateLimitStore {
  readonly maxKeys: number;
  /** Keys dropped because the store was full. */
  evictions = 0;
  /** Least recently used first (a Map keeps insertion order; a use re-inserts). */
  readonly #entries = new Map<string, Entry>();

  constructor(options: MemoryStoreOptions = {}) {
    const maxKeys = options.maxKeys ?? 100_000;
    if (!Number.isSafeInteger(maxKeys) || maxKeys < 1) throw new RangeError(`maxKeys must be a whole number ≥ 1, got ${String(maxKeys)}.`);
    this.maxKeys = maxKeys;
  }

  get size(): number {
    return this.#entries.size;
  }

  consume(checks: readonly StoreCheck[], now: number): readonly StoreOutcome[] {
    if (checks.length === 1) return [this.#consumeOne(checks[0]!, now)];
    const steps: Step[] = [];
    let allowed = true;
    for (const check of checks) {
      const taken = step(check, this.#stateOf(check.key, now), now);
      allowed &&= taken.outcome.allowed;
      steps.push(taken);
    }
    if (allowed) for (let index = 0; index < checks.length; index++) this.#keep(checks[index]!, steps[index]!.next, now);
    return steps.map((taken) => taken.outcome);
  }

  reset(keys: readonly string[]): void {
    for (const key of keys) this.#entries.delete(key);
  }

  #consumeOne(check: StoreCheck, now: number): StoreOutcome {
    const taken = step(check, this.#stateOf(check.key, now), now);
    if (taken.outcome.allowed) this.#keep(check, taken.next, now);
    return taken.outcome;
  }

  #stateOf(key: string, now: number): LimitState | undefined {
    const entry = this.#entries.get(key);
    return entry === undefined || now >= entry.expiresAt ? undefined : entry.state;
  }

  #keep(check: StoreCheck, state: LimitState, now: number): void {
    const entries = this.#entries;
    const expiresAt = now + lifetimeOf(check, state, now);
    const entry = entries.get(check.key);
    if (entry !== undefined) {
      entries.delete(check.key);
      entry.state = state;
      entry.expiresAt = expiresAt;
      entries.set(check.key, entry);
      return;
    }
    entries.set(check.key, { state, expiresAt });
    if (entries.size > this.maxKeys) {
      entries.delete(entries.keys().next().value!);
      this.evictions++;
    }
  }
}
