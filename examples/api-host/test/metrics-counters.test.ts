/**
 * `METRICS=1`: what the host's packages refuse is counted in `GET /metrics` from what they publish
 * on their diagnostics channels — rate-limit refusals per limiter, throttled logins per limit, and
 * requests shed under pressure — over real sockets, read back through Prometheus' own parser.
 * (Profiles the profiler's storage drops are published by its write queue: profiler's
 * file-storage-bounded-queue test.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { promtoolCheck, samples, select, type Sample } from '../../../test/kit/prometheus-exposition.js';
import { send } from './support/metrics-mix.js';
import { startHostInProcess, type StartedHost } from './support/start-host.js';

async function scrape(origin: string): Promise<Sample[]> {
  const answer = await send(origin, '/metrics');
  expect(answer.status).toBe(200);
  promtoolCheck(answer.body);
  return samples(answer.body);
}

const sampleValue = (all: readonly Sample[], name: string, labels: Record<string, string> = {}): number | undefined =>
  select(all, name, labels)[0]?.value;

describe('rate limits and login throttling', () => {
  let host: StartedHost;
  beforeAll(async () => {
    // Each client (X-Forwarded-For from a trusted proxy) gets its own counts.
    host = await startHostInProcess({ METRICS: '1', RATE_LIMIT: '3/60s', LOGIN_THROTTLING: '1/60s', TRUSTED_PROXIES: 'loopback' });
  });
  afterAll(async () => {
    await host?.stop();
  });

  it('counts each refusal under the limit that refused it', async () => {
    const origin = host.running.url;
    const before = await scrape(origin);
    expect(sampleValue(before, 'switchboard_rate_limit_refusals_total')).toBeUndefined();
    expect(sampleValue(before, 'switchboard_requests_shed_total')).toBe(0);
    expect(sampleValue(before, 'switchboard_profiles_dropped_total')).toBe(0);

    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await send(origin, '/api/items', { headers: { 'x-forwarded-for': '203.0.113.1' } })).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);

    const login = { method: 'POST', headers: { 'x-forwarded-for': '203.0.113.2', 'content-type': 'application/json' } };
    const body = JSON.stringify({ username: 'demo', password: 'not-the-password' });
    expect((await send(origin, '/api/token', { ...login, body })).status).toBe(401);
    expect((await send(origin, '/api/token', { ...login, body })).status).toBe(429);

    const after = await scrape(origin);
    expect(sampleValue(after, 'switchboard_rate_limit_refusals_total', { limiter: 'client' })).toBe(2);
    expect(sampleValue(after, 'switchboard_login_throttled_total', { limit: 'login' })).toBe(1);
    // The per-client limiter refuses before routing: no route is known yet.
    const refused = select(after, 'http_server_request_duration_seconds_count', { route: '(none)', status: '429' });
    expect(refused.map((sample) => sample.value)).toEqual([2]);
  });
});

describe('load shedding', () => {
  let host: StartedHost;
  beforeAll(async () => {
    // Any process is over 1 MB of resident memory: once the monitor has sampled, requests are shed.
    host = await startHostInProcess({ METRICS: '1', PRESSURE_MAX_RSS_MB: '1' });
  });
  afterAll(async () => {
    await host?.stop();
  });

  it('counts every request shed, while /metrics itself is exempt', async () => {
    const origin = host.running.url;
    let shed = 0;
    // Until the monitor's first sample says so (bounded), then a few more.
    for (let attempt = 0; attempt < 2000 && shed < 3; attempt++) {
      const answer = await send(origin, '/api/items');
      const status = answer.status;
      if (status === 503) shed++;
      else expect(status).toBe(200);
      if (status !== 503) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(shed).toBe(3);
    const counted = await scrape(origin);
    expect(select(counted, 'switchboard_requests_shed_total').map((sample) => sample.value)).toEqual([3]);
  });
});
