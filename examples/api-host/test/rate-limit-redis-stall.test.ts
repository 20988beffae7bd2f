/**
 * The host process with `REDIS_URL` and `RATE_LIMIT`, its real redis-server connected but not
 * answering (`CLIENT PAUSE ... ALL`, far longer than the store's deadline): logins get 503 (login
 * throttling fails closed), ordinary requests pass (the per-client limiter fails open), and
 * `/health` and `/ready` are not rate limited at all — each answered while Redis is still paused.
 * The host trusts loopback as a proxy, so each step speaks for a client address of its own.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RedisServer } from '../../../test/kit/services/redis-server.js';
import { startHostProcess, type HostProcess } from './support/start-host.js';

/** Longer than any answer below can take on a busy machine: Redis is paused throughout. */
const PAUSE_MS = 120_000;
/** Only a guard against a hang (the defect this file is about): no answer takes it on a working host. */
const HANG_GUARD_MS = 60_000;

let redis: RedisServer;
let host: HostProcess;
let url: string;

beforeAll(async () => {
  redis = await RedisServer.start();
  host = await startHostProcess({
    APP_DEBUG: '0',
    ALLOW_DEMO_USERS: '1',
    TRUSTED_PROXIES: 'loopback',
    REDIS_URL: redis.url,
    RATE_LIMIT: '3/60s',
  });
  url = await host.url;
}, 240_000);

afterAll(async () => {
  if (host !== undefined && host.child.exitCode === null) {
    host.child.kill('SIGTERM');
    await host.exited;
  }
  await redis?.close();
}, 60_000);

function get(path: string, address: string): Promise<Response> {
  return fetch(`${url}${path}`, { headers: { 'x-forwarded-for': address }, signal: AbortSignal.timeout(HANG_GUARD_MS) });
}

function login(address: string): Promise<Response> {
  return fetch(`${url}/api/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ username: 'demo', password: 'not-the-password' }),
    signal: AbortSignal.timeout(HANG_GUARD_MS),
  });
}

describe('the host with RATE_LIMIT and REDIS_URL', () => {
  it('/health and /ready are not rate limited; other paths are', async () => {
    // The store has answered once this address gets the rate limit fields.
    await vi.waitFor(async () => expect((await get('/api/openapi.json', '192.0.2.1')).headers.get('ratelimit')).not.toBeNull(), {
      timeout: 30_000,
      interval: 50,
    });
    const address = '192.0.2.2';
    for (let request = 0; request < 5; request++) {
      for (const path of ['/health', '/ready']) {
        const response = await get(path, address);
        expect(response.status).toBe(200);
        expect(response.headers.get('ratelimit')).toBeNull();
      }
    }
    const statuses: number[] = [];
    for (let request = 0; request < 4; request++) statuses.push((await get('/api/openapi.json', address)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('Redis paused: a login gets 503, ordinary requests pass, /health and /ready answer — all while Redis is still paused', async () => {
    const pause = await redis.pauseAll(PAUSE_MS);
    try {
      const refused = await login('192.0.2.3');
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(await refused.json()).toEqual({ code: 503, message: 'Logins are unavailable for a moment: try again.' });

      // More than the limit (3): failing open, the limiter lets each through without counting.
      const statuses: number[] = [];
      for (let request = 0; request < 5; request++) statuses.push((await get('/api/openapi.json', '192.0.2.4')).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200]);
      expect((await get('/health', '192.0.2.4')).status).toBe(200);
      expect((await get('/ready', '192.0.2.4')).status).toBe(200);

      expect(pause.stillPaused()).toBe(true);
      // Said once for the outage, on the rate_limit channel.
      expect(host.log().match(/Rate limit store: Redis at 127\.0\.0\.1:\d+ is unavailable \(no answer within 250 ms\)/g)).toHaveLength(1);
    } finally {
      await redis.restart();
    }
  }, 120_000);
});
