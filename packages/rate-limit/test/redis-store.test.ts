/**
 * The Redis store against a real redis-server: several processes checking one key at once never
 * get more through than the limit; keys expire on their own; an outage is logged once (and its end
 * once), and each limiter fails open or closed as configured.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { MemoryLogger } from '@switchboard/http-kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimiter, RateLimitStoreUnavailableError } from '../src/index.js';
import { RedisStore } from '../src/redis/index.js';
import { RedisServer, type RedisInspector } from '../../../test/kit/services/redis-server.js';

let redis: RedisServer;
let inspector: RedisInspector;
beforeAll(async () => {
  redis = await RedisServer.start();
  inspector = await redis.inspector();
});
afterAll(async () => {
  await inspector?.close();
  await redis?.close();
});

/** Starts a checker process and resolves once it is connected, with a function that starts its checks. */
function startChecker(prefix: string, checks: number): Promise<{ go: () => Promise<number> }> {
  const fixture = join(import.meta.dirname, 'fixtures', 'concurrent-checker.ts');
  const child = spawn(
    process.execPath,
    ['--conditions=@switchboard/source', '--import', 'tsx', fixture, redis.url, prefix, String(checks)],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  let output = '';
  const lines: Array<(line: string) => void> = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
    let newline: number;
    while ((newline = output.indexOf('\n')) >= 0) {
      const line = output.slice(0, newline);
      output = output.slice(newline + 1);
      lines.shift()?.(line);
    }
  });
  const nextLine = () =>
    new Promise<string>((resolve, reject) => {
      lines.push(resolve);
      child.once('exit', (code) => reject(new Error(`checker exited with ${code}`)));
    });
  return nextLine().then((ready) => {
    expect(ready).toBe('ready');
    return {
      go: async () => {
        const answer = nextLine();
        child.stdin.write('go\n');
        const line = await answer;
        return Number(/^allowed (\d+)$/.exec(line)![1]);
      },
    };
  });
}

describe('RedisStore', () => {
  it('four processes checking one key at once let exactly the limit through', async () => {
    const prefix = `test:concurrent:${process.pid}:`;
    const checkers = await Promise.all([0, 1, 2, 3].map(() => startChecker(prefix, 25)));
    // 4 × 25 = 100 checks against a limit of 37.
    const allowed = await Promise.all(checkers.map((checker) => checker.go()));
    expect(allowed.reduce((sum, count) => sum + count, 0)).toBe(37);
  }, 60_000);

  it('keys expire on their own once their state no longer matters', async () => {
    const store = new RedisStore({ url: redis.url, keyPrefix: 'test:expiry:' });
    try {
      expect(await store.waitUntilAvailable(5_000)).toBe(true);
      const limiter = new RateLimiter({ id: 'expiring', policy: 'fixed_window', limit: 5, intervalMs: 30_000, store });
      await limiter.consume('203.0.113.7');
      const ttl = await inspector.pTTL('test:expiry:expiring:203.0.113.7');
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(30_000);
    } finally {
      await store.close();
    }
  });

  it('an outage is logged once; limiters fail open by default, closed when told; the end is logged once', async () => {
    const records: MemoryLogger['records'] = [];
    const store = new RedisStore({ url: redis.url, keyPrefix: 'test:outage:', logger: new MemoryLogger(records) });
    const open = new RateLimiter({ id: 'open', policy: 'fixed_window', limit: 1, intervalMs: 60_000, store });
    const closed = new RateLimiter({ id: 'closed', policy: 'fixed_window', limit: 1, intervalMs: 60_000, store, failOpen: false });
    try {
      expect(await store.waitUntilAvailable(5_000)).toBe(true);
      expect((await open.consume('a')).allowed).toBe(true);
      expect((await open.consume('a')).allowed).toBe(false);
      await redis.stop();
      for (let attempt = 0; attempt < 5; attempt++) {
        const decision = await open.consume('a');
        expect(decision).toMatchObject({ allowed: true, storeUnavailable: true, results: [] });
        await expect(closed.consume('b')).rejects.toBeInstanceOf(RateLimitStoreUnavailableError);
      }
      const errors = records.filter((record) => record.level === 'ERROR');
      expect(errors).toHaveLength(1);
      expect(errors[0]!.channel).toBe('rate_limit');
      expect(errors[0]!.message).toMatch(/Redis at 127\.0\.0\.1:\d+ is unavailable/);
      await redis.start();
      expect(await store.waitUntilAvailable(10_000)).toBe(true);
      // The restarted server kept nothing (no persistence): counting starts afresh.
      expect((await closed.consume('b')).allowed).toBe(true);
      expect(records.filter((record) => record.level === 'INFO' && /available again/.test(record.message))).toHaveLength(1);
      expect(records.filter((record) => record.level === 'ERROR')).toHaveLength(1);
    } finally {
      await store.close();
    }
  }, 30_000);

  it('Redis connected but not answering (paused): checks, resets and close end within the deadline, while it is still paused', async () => {
    const records: MemoryLogger['records'] = [];
    const store = new RedisStore({ url: redis.url, keyPrefix: 'test:paused:', commandTimeoutMs: 200, logger: new MemoryLogger(records) });
    const open = new RateLimiter({ id: 'open', policy: 'fixed_window', limit: 1, intervalMs: 60_000, store });
    const closed = new RateLimiter({ id: 'closed', policy: 'token_bucket', limit: 1, intervalMs: 60_000, store, failOpen: false });
    expect(await store.waitUntilAvailable(5_000)).toBe(true);
    // Far longer than the test waits: each answer below comes from the deadline, not from Redis.
    const pause = await redis.pauseAll(120_000);
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        expect(await open.consume('a')).toMatchObject({ allowed: true, storeUnavailable: true });
        await expect(closed.consume('b')).rejects.toBeInstanceOf(RateLimitStoreUnavailableError);
      }
      await expect(store.reset(['a'])).rejects.toThrow('no answer within 200 ms');
      expect(store.available).toBe(false);
      await store.close();
      expect(pause.stillPaused()).toBe(true);
      expect(records.map((record) => `${record.level} ${record.message}`)).toEqual([
        expect.stringMatching(/^ERROR Rate limit store: Redis at 127\.0\.0\.1:\d+ is unavailable \(no answer within 200 ms\)/),
      ]);
    } finally {
      await store.close();
      await redis.restart();
    }
  }, 60_000);
});
