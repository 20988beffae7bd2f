/**
 * `PROFILER_REDIS_URL`: two hosts on one real redis-server find each other's profiles (as host
 * processes behind a balancer would); a host whose Redis is unreachable answers its API as usual
 * and its profiler pages say storage is down; shutdown closes the connection.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RedisServer } from '../../../test/kit/services/redis-server.js';
import { startHostInProcess, type StartedHost } from './support/start-host.js';

let redis: RedisServer;
const hosts: StartedHost[] = [];

beforeAll(async () => {
  redis = await RedisServer.start();
});

afterAll(async () => {
  for (const host of hosts) await host.stop();
  await redis?.close();
});

async function host(env: Record<string, string>): Promise<StartedHost> {
  const started = await startHostInProcess({ APP_DEBUG: '1', ...env });
  hosts.push(started);
  return started;
}

describe('example host with PROFILER_REDIS_URL', () => {
  it("a 404's tokens from one host resolve on the other, once the first one has shut down right after answering", async () => {
    const a = await host({ PROFILER_REDIS_URL: redis.url });
    const b = await host({ PROFILER_REDIS_URL: redis.url });
    const response = await fetch(`${a.running.url}/robots.txt`);
    expect(response.status).toBe(404);
    const tokens = [response.headers.get('x-debug-token')!, response.headers.get('x-previous-debug-token')!];
    // At once: shutdown waits for kernel.terminate (which queues the profiles), writes what waits, closes the connection.
    await a.stop();

    const lookup = (token: string) => fetch(`${b.running.url}/_profiler/${token}?format=json`);
    // b may still be connecting: 503 until then.
    await vi.waitFor(async () => expect((await lookup(tokens[0]!)).status).toBe(200), { timeout: 10_000, interval: 20 });
    const [sub, main] = await Promise.all(tokens.map(lookup));
    expect([sub!.status, main!.status]).toEqual([200, 200]);
    expect(((await sub!.json()) as { parent: { token: string } }).parent.token).toBe(tokens[1]);
    expect(((await main!.json()) as { url: string }).url).toBe(`${a.running.url}/robots.txt`);
  });

  it('with Redis unreachable the API answers as usual and the profiler pages say storage is down', async () => {
    const down = await host({ PROFILER_REDIS_URL: 'redis://127.0.0.1:1' });
    await vi.waitFor(async () => expect(await (await fetch(`${down.running.url}/_profiler/`)).text()).toContain('is unavailable since'), {
      timeout: 10_000,
      interval: 20,
    });
    const health = await fetch(`${down.running.url}/health`);
    expect(health.status).toBe(200);
    const missing = await fetch(`${down.running.url}/robots.txt`);
    expect(missing.status).toBe(404);
    const list = await fetch(`${down.running.url}/_profiler/`);
    expect(list.status).toBe(200);
    expect(await list.text()).toContain('Profile storage unavailable.');
    const unknown = await fetch(`${down.running.url}/_profiler/abcdef`);
    expect(unknown.status).toBe(503);
    expect(
      down.logger.records
        .filter((record) => record.message.startsWith('Profiler storage'))
        .map((record) => `${record.level} ${record.message}`),
    ).toEqual([expect.stringContaining('ERROR Profiler storage: Redis at 127.0.0.1:1 is unavailable')]);
  });

  it('refuses PROFILER_DIR and PROFILER_REDIS_URL together, and a URL that is not one, without echoing it', async () => {
    await expect(startHostInProcess({ APP_DEBUG: '1', PROFILER_DIR: '/tmp/never-created', PROFILER_REDIS_URL: redis.url })).rejects.toThrow(
      'not both',
    );
    await expect(startHostInProcess({ APP_DEBUG: '1', PROFILER_REDIS_URL: 'secret-password@nowhere' })).rejects.toThrow(
      /^PROFILER_REDIS_URL must be a URL such as redis:\/\/127\.0\.0\.1:6379\.$/,
    );
  });
});
