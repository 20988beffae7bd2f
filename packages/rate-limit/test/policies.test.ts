/**
 * Each policy, step by step, on a clock the test moves (the limiter's `clock` option): the same
 * scenarios against the memory store and against a real redis-server, so that the Lua script and
 * the in-memory arithmetic count alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CompoundRateLimiter,
  MemoryStore,
  RateLimiter,
  type LimitDefinition,
  type RateLimitDecision,
  type RateLimitStore,
} from '../src/index.js';
import { RedisStore } from '../src/redis/index.js';
import { RedisServer } from '../../../test/kit/services/redis-server.js';

/** A clock the test sets: the limiter reads it at each check. */
class TestClock {
  now = 1_700_000_000_000;
  readonly read = (): number => this.now;
  advance(milliseconds: number): void {
    this.now += milliseconds;
  }
}

let redis: RedisServer;
let redisStore: RedisStore;
beforeAll(async () => {
  redis = await RedisServer.start();
  redisStore = new RedisStore({ url: redis.url, keyPrefix: 'test:policies:' });
  expect(await redisStore.waitUntilAvailable(5_000)).toBe(true);
});
afterAll(async () => {
  await redisStore?.close();
  await redis?.close();
});

const stores: Array<[string, () => RateLimitStore]> = [
  ['memory store', () => new MemoryStore()],
  ['Redis store', () => redisStore],
];

let keyCounter = 0;
/** A key of its own per test, so the Redis store's state never leaks between tests. */
const freshKey = (): string => `client-${process.pid}-${keyCounter++}`;

async function hits(limiter: RateLimiter, key: string, count: number): Promise<RateLimitDecision[]> {
  const decisions: RateLimitDecision[] = [];
  for (let index = 0; index < count; index++) decisions.push(await limiter.consume(key));
  return decisions;
}

describe.each(stores)('policies on the %s', (_name, storeOf) => {
  const limiterOf = (definition: Omit<LimitDefinition, 'id'>, clock: TestClock, id = 'test') =>
    new RateLimiter({ id, ...definition, store: storeOf(), clock: clock.read });

  it('fixed window: `limit` hits from the first one, then refused until the window ends', async () => {
    const clock = new TestClock();
    const limiter = limiterOf({ policy: 'fixed_window', limit: 3, intervalMs: 1_000 }, clock);
    const key = freshKey();
    const first = await hits(limiter, key, 3);
    expect(first.map((decision) => [decision.allowed, decision.results[0]!.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
    ]);
    clock.advance(400);
    const refused = await limiter.consume(key);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfter).toBe(600);
    expect(refused.results[0]).toMatchObject({ id: 'test', key, allowed: false, remaining: 0, resetAfter: 600, retryAfter: 600 });
    clock.advance(599);
    expect((await limiter.consume(key)).allowed).toBe(false);
    clock.advance(1);
    const next = await limiter.consume(key);
    expect(next.allowed).toBe(true);
    expect(next.results[0]!.remaining).toBe(2);
    expect(next.results[0]!.resetAfter).toBe(1_000);
  });

  it('sliding window: the previous window counts in proportion to what is left of it', async () => {
    const clock = new TestClock();
    const limiter = limiterOf({ policy: 'sliding_window', limit: 4, intervalMs: 1_000 }, clock);
    const key = freshKey();
    expect((await hits(limiter, key, 4)).every((decision) => decision.allowed)).toBe(true);
    expect((await limiter.consume(key)).allowed).toBe(false);
    // A new window: the 4 previous hits still weigh 4 × (1000 − 0)/1000 = 4.
    clock.advance(1_000);
    const refused = await limiter.consume(key);
    expect(refused.allowed).toBe(false);
    // 4 × (1 − t/1000) + 1 ≤ 4 once t ≥ 250.
    expect(refused.retryAfter).toBe(250);
    clock.advance(249);
    expect((await limiter.consume(key)).allowed).toBe(false);
    clock.advance(1);
    const allowed = await limiter.consume(key);
    expect(allowed.allowed).toBe(true);
    expect(allowed.results[0]!.remaining).toBe(0);
    // Two windows later nothing is remembered.
    clock.advance(2_000);
    expect((await hits(limiter, key, 4)).every((decision) => decision.allowed)).toBe(true);
  });

  it('sliding window: a full current window waits for the next one and its share of this one', async () => {
    const clock = new TestClock();
    const limiter = limiterOf({ policy: 'sliding_window', limit: 2, intervalMs: 1_000 }, clock);
    const key = freshKey();
    await hits(limiter, key, 2);
    clock.advance(500);
    const refused = await limiter.consume(key);
    // Next window at 1000 ms; there the 2 hits weigh 2 × (1 − t/1000) and 1 more must fit under 2: t ≥ 500.
    expect(refused.retryAfter).toBe(500 + 500);
    clock.advance(1_000);
    expect((await limiter.consume(key)).allowed).toBe(true);
  });

  it('token bucket: a burst of `limit`, then one token per interval/limit', async () => {
    const clock = new TestClock();
    const limiter = limiterOf({ policy: 'token_bucket', limit: 4, intervalMs: 1_000 }, clock);
    const key = freshKey();
    expect((await hits(limiter, key, 4)).map((decision) => decision.results[0]!.remaining)).toEqual([3, 2, 1, 0]);
    const refused = await limiter.consume(key);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfter).toBe(250);
    expect(refused.results[0]!.resetAfter).toBe(1_000);
    clock.advance(250);
    expect((await limiter.consume(key)).allowed).toBe(true);
    expect((await limiter.consume(key)).allowed).toBe(false);
    clock.advance(10_000);
    const refilled = await limiter.consume(key);
    // Never more than `limit` tokens, however long the wait.
    expect(refilled.results[0]!.remaining).toBe(3);
  });

  it('a cost above 1 takes that many; a cost above the limit is never allowed', async () => {
    const clock = new TestClock();
    const limiter = limiterOf({ policy: 'fixed_window', limit: 5, intervalMs: 1_000 }, clock);
    const key = freshKey();
    expect((await limiter.consume(key, 3)).results[0]!.remaining).toBe(2);
    expect((await limiter.consume(key, 3)).allowed).toBe(false);
    expect((await limiter.consume(key, 2)).allowed).toBe(true);
    expect((await limiter.consume(freshKey(), 6)).allowed).toBe(false);
  });

  it('compound: allowed only when every limit allows, and a refusal takes nothing from the others', async () => {
    const clock = new TestClock();
    const store = storeOf();
    const perUser = new RateLimiter({ id: 'user', policy: 'fixed_window', limit: 1, intervalMs: 60_000, store, clock: clock.read });
    const perAddress = new RateLimiter({ id: 'address', policy: 'fixed_window', limit: 3, intervalMs: 60_000, store, clock: clock.read });
    const compound = new CompoundRateLimiter([perUser, perAddress]);
    const address = freshKey();
    const first = await compound.consume([`alice|${address}`, address]);
    expect(first.allowed).toBe(true);
    const second = await compound.consume([`alice|${address}`, address]);
    expect(second.allowed).toBe(false);
    expect(second.results.map((result) => [result.id, result.allowed, result.remaining])).toEqual([
      ['user', false, 0],
      // Not charged for the refused attempt.
      ['address', true, 2],
    ]);
    // The address limit was not charged for the refused attempt: two more users still fit.
    expect((await compound.consume([`bob|${address}`, address])).allowed).toBe(true);
    expect((await compound.consume([`carol|${address}`, address])).allowed).toBe(true);
    const fourth = await compound.consume([`dave|${address}`, address]);
    expect(fourth.allowed).toBe(false);
    expect(fourth.results.map((result) => result.allowed)).toEqual([true, false]);
  });

  it('a check whose clock reads behind the stored state (another process, a later arrival) never resets a window', async () => {
    const clock = new TestClock();
    for (const policy of ['fixed_window', 'sliding_window', 'token_bucket'] as const) {
      const limiter = limiterOf({ policy, limit: 2, intervalMs: 60_000 }, clock, policy);
      const key = freshKey();
      clock.now = 1_700_000_100_000;
      expect((await hits(limiter, key, 2)).every((decision) => decision.allowed)).toBe(true);
      clock.now -= 5;
      const behind = await limiter.consume(key);
      expect(behind.allowed, policy).toBe(false);
    }
  });

  it('reset starts a key afresh', async () => {
    const clock = new TestClock();
    const limiter = limiterOf({ policy: 'fixed_window', limit: 1, intervalMs: 60_000 }, clock);
    const key = freshKey();
    await limiter.consume(key);
    expect((await limiter.consume(key)).allowed).toBe(false);
    await limiter.reset(key);
    expect((await limiter.consume(key)).allowed).toBe(true);
  });
});

describe('the memory store', () => {
  it('answers synchronously', () => {
    const limiter = new RateLimiter({ id: 'sync', policy: 'token_bucket', limit: 2, intervalMs: 1_000, store: new MemoryStore() });
    const decision = limiter.consume('203.0.113.9');
    expect(decision).not.toBeInstanceOf(Promise);
  });

  it('keeps at most maxKeys keys, dropping the least recently used and counting it', () => {
    const clock = new TestClock();
    const store = new MemoryStore({ maxKeys: 2 });
    const limiter = new RateLimiter({ id: 'lru', policy: 'fixed_window', limit: 1, intervalMs: 60_000, store, clock: clock.read });
    limiter.consume('a');
    limiter.consume('b');
    // `a` used again (refused): still the least recently kept, so it goes when `c` arrives.
    limiter.consume('b');
    limiter.consume('c');
    expect(store.size).toBe(2);
    expect(store.evictions).toBe(1);
    expect((limiter.consume('a') as RateLimitDecision).allowed).toBe(true);
    expect((limiter.consume('c') as RateLimitDecision).allowed).toBe(false);
  });
});

describe('definitions', () => {
  it('a wrong definition fails when the limiter is built', () => {
    const store = new MemoryStore();
    expect(() => new RateLimiter({ id: 'x', policy: 'leaky' as never, limit: 1, intervalMs: 1, store })).toThrow(/policy must be one of/);
    expect(() => new RateLimiter({ id: 'x', policy: 'fixed_window', limit: 0, intervalMs: 1, store })).toThrow(/limit must be/);
    expect(() => new RateLimiter({ id: 'x', policy: 'fixed_window', limit: 1, intervalMs: 0.5, store })).toThrow(/intervalMs must be/);
    expect(() => new RateLimiter({ id: 'a b', policy: 'fixed_window', limit: 1, intervalMs: 1, store })).toThrow(/id must be/);
  });
});
