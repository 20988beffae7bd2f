/**
 * Two real apps served over node:http share one real redis-server, as two processes behind a load
 * balancer would: a token announced by one resolves on the other; no secret reaches Redis; and
 * Redis stopping mid-run costs the apps nothing but profiles.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MemoryLogger } from '@switchboard/http-kernel';
import type { ServedKernel } from '../../../test/kit/index.js';
import { REDACTED } from '@switchboard/profiler';
import { RedisProfilerStorage, type RedisProfilerStorageOptions } from '../src/index.js';
import { serveProfiledApp } from './support/profiled-app.js';
import { RedisServer } from '../../../test/kit/services/redis-server.js';

let redis: RedisServer;
const cleanups: Array<() => Promise<void>> = [];
let prefixes = 0;

beforeAll(async () => {
  redis = await RedisServer.start();
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await redis?.close();
});

/** An app with its own storage (its own connection) on the prefix given. */
async function app(keyPrefix: string, options: RedisProfilerStorageOptions = {}, secrets: readonly string[] = []) {
  const storage = new RedisProfilerStorage({ url: redis.url, keyPrefix, ...options });
  const { server, logs } = await serveProfiledApp(storage, secrets);
  cleanups.push(async () => {
    await server.close();
    await storage.close();
  });
  return { storage, server, logs };
}

function get(server: ServedKernel, path: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(new URL(path, server.origin), { headers });
}

async function profileJson(server: ServedKernel, token: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await get(server, `/_profiler/${token}?format=json`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Waits until the app has handed the token's profile to its storage (after the response), then until Redis has it. */
async function stored(storage: RedisProfilerStorage, token: string): Promise<void> {
  await vi.waitFor(() => expect(storage.has(token)).toBe(true), { timeout: 10_000, interval: 5 });
  expect(await storage.flush()).toBe(true);
}

describe('apps sharing a redis-server', () => {
  it('the tokens of a 404 served by one app resolve on the other, the error sub-request a child of the main request', async () => {
    const prefix = `apps${++prefixes}:`;
    const a = await app(prefix);
    const b = await app(prefix);
    const response = await get(a.server, '/robots.txt');
    expect(response.status).toBe(404);
    const token = response.headers.get('x-debug-token')!;
    const previous = response.headers.get('x-previous-debug-token')!;
    await stored(a.storage, token);
    await stored(a.storage, previous);

    const sub = await profileJson(b.server, token);
    expect(sub.status).toBe(200);
    expect(sub.body['statusCode']).toBe(404);
    expect(sub.body['parent']).toMatchObject({ token: previous });
    const main = await profileJson(b.server, previous);
    expect(main.body['children']).toEqual([expect.objectContaining({ token })]);

    const latest = await get(b.server, '/_profiler/latest?ip=127.0.0.1&format=json');
    expect(((await latest.json()) as { token: string }).token).toBe(previous);
  });

  it('no secret reaches Redis: every key and value under the prefix is scanned', async () => {
    const prefix = `apps${++prefixes}:`;
    const passphrase = 'correct-horse-battery-staple';
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJlLWJ5dGVzLWhlcmU';
    const cookie = 'session-cookie-value-1234';
    const { storage, server } = await app(prefix, {}, [passphrase]);
    const response = await get(server, `/hello?access_token=${jwt}&note=${passphrase}`, {
      authorization: `Bearer ${jwt}`,
      cookie: `sid=${cookie}`,
    });
    expect(response.status).toBe(200);
    const token = response.headers.get('x-debug-token')!;
    await stored(storage, token);

    const inspector = await redis.inspector();
    let everything = '';
    try {
      for (const key of (await inspector.keys(`${prefix}*`)).map(String)) {
        const type = await inspector.type(key);
        const value =
          type === 'string'
            ? await inspector.get(key)
            : type === 'hash'
              ? await inspector.hGetAll(key)
              : type === 'zset'
                ? await inspector.zRange(key, 0, -1)
                : type;
        everything += `${key}\n${JSON.stringify(value)}\n`;
      }
    } finally {
      await inspector.close();
    }
    expect(everything).toContain(`profile:${token}`);
    expect(everything).toContain('hello, signing with');
    expect(everything).toContain(REDACTED);
    for (const secret of [passphrase, jwt, cookie, 'c2lnbmF0dXJlLWJ5dGVzLWhlcmU']) expect(everything).not.toContain(secret);
  });

  it('Redis stopped mid-run: the API answers, profiles wait up to the bound then are dropped and counted, one log line, the pages say storage is down; Redis back: all recovers', async () => {
    const prefix = `apps${++prefixes}:`;
    const logger = new MemoryLogger();
    const maxPendingWrites = 5;
    const { storage, server } = await app(prefix, { maxPendingWrites, commandTimeoutMs: 500, logger });
    const before = await get(server, '/hello');
    const beforeToken = before.headers.get('x-debug-token')!;
    await stored(storage, beforeToken);
    expect(storage.status.available).toBe(true);

    await redis.stop();
    await vi.waitFor(() => expect(storage.status.available).toBe(false), { timeout: 10_000, interval: 5 });
    const tokens: string[] = [];
    for (let i = 0; i < 12; i++) {
      const response = await get(server, '/hello');
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ hello: 'world' });
      tokens.push(response.headers.get('x-debug-token')!);
    }
    const last = tokens.at(-1)!;
    await vi.waitFor(() => expect(storage.has(last)).toBe(true), { timeout: 10_000, interval: 5 });
    expect(storage.pendingWrites).toBe(maxPendingWrites);
    expect(storage.droppedWrites).toBe(12 - maxPendingWrites);
    const waiting = tokens.slice(-maxPendingWrites);
    expect(tokens.filter((token) => storage.has(token))).toEqual(waiting);

    // The pages: a waiting profile is shown (this process holds it); any other token might exist, so 503, not 404.
    expect((await profileJson(server, last)).status).toBe(200);
    for (const token of [tokens[0]!, beforeToken]) {
      const missing = await profileJson(server, token);
      expect(missing.status).toBe(503);
      expect(missing.body['title']).toBe('Profile storage unavailable');
      expect(missing.body['detail']).toContain(`Redis at 127.0.0.1:${redis.port} is unavailable since`);
    }
    const list = await get(server, '/_profiler/');
    expect(list.status).toBe(200);
    expect(await list.text()).toContain('<b>Profile storage unavailable.</b> Redis at');
    const listJson = (await (await get(server, '/_profiler/?format=json')).json()) as {
      profiles: Array<{ token: string }>;
      storage: { available: boolean };
    };
    expect(listJson.storage.available).toBe(false);
    expect(listJson.profiles.map((profile) => profile.token)).toEqual([...waiting].reverse());
    const errors = () =>
      logger.records.filter((record) => record.level === 'ERROR' || record.level === 'WARNING' || record.level === 'CRITICAL');
    expect(errors()).toHaveLength(1);
    expect(errors()[0]!.message).toContain(`Redis at 127.0.0.1:${redis.port} is unavailable`);

    await redis.start();
    await vi.waitFor(() => expect(storage.status.available).toBe(true), { timeout: 30_000, interval: 20 });
    expect(await storage.flush()).toBe(true);
    const other = new RedisProfilerStorage({ url: redis.url, keyPrefix: prefix });
    cleanups.push(() => other.close());
    await vi.waitFor(() => expect(other.status.available).toBe(true), { timeout: 10_000, interval: 5 });
    // The restarted Redis kept nothing; what waited is there now, what was dropped is not.
    for (const token of waiting) expect((await other.read(token))?.token).toBe(token);
    expect(await other.read(tokens[0]!)).toBeNull();
    expect((await profileJson(server, beforeToken)).status).toBe(404);
    expect(errors()).toHaveLength(1);
    expect(logger.records.filter((record) => record.level === 'INFO').map((record) => record.message)).toEqual([
      expect.stringContaining(`Redis at 127.0.0.1:${redis.port} is available again`),
    ]);

    const after = await get(server, '/hello');
    await stored(storage, after.headers.get('x-debug-token')!);
    expect((await profileJson(server, after.headers.get('x-debug-token')!)).status).toBe(200);
  });
});
