/**
 * `METRICS=1`: the host's `GET /metrics` over real sockets. A known mix of requests (hellos —
 * `GET /health` —, item lists, 404s for 500 random paths, a 405 and a 500) is counted exactly per
 * route name and status, checked by Prometheus' own parser (`promtool check metrics`); who may
 * read it (`METRICS_TOKEN`, else loopback clients only).
 *
 * Each answer's `kernel.terminate` (where a request is recorded) runs on the loop turn after the
 * answer was written, before the server reads a request from another connection: a scrape sent
 * after the last answer arrived sees every request before it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { promtoolCheck, samples, select, type Sample } from '../../../test/kit/prometheus-exposition.js';
import { DURATION, EXPECTED_MIX_COUNTS, expectConsistentHistograms, mixCounts, send, sendMix } from './support/metrics-mix.js';
import { startHostInProcess, type StartedHost } from './support/start-host.js';

describe('GET /metrics with METRICS=1, loopback only', () => {
  let host: StartedHost;
  let all: Sample[];
  beforeAll(async () => {
    host = await startHostInProcess({ METRICS: '1', TRUSTED_PROXIES: 'loopback' });
    const origin = host.running.url;
    await sendMix(origin, async () => {
      await host.app.database.connection.query('DROP TABLE items CASCADE');
    });
    const scraped = await send(origin, '/metrics');
    expect(scraped.status).toBe(200);
    expect(scraped.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    promtoolCheck(scraped.body);
    all = samples(scraped.body);
  });
  afterAll(async () => {
    await host?.stop();
  });

  it('counts the mix exactly, per route name and status', () => {
    expect(mixCounts(all)).toEqual(EXPECTED_MIX_COUNTS);
  });

  it('adds no series for the random paths: one (none) series per status', () => {
    expect(select(all, `${DURATION}_count`, { route: '(none)' }).length).toBe(2);
    expect(all.some((sample) => Object.values(sample.labels).some((value) => value.includes('/probe-')))).toBe(false);
  });

  it('writes histograms whose buckets are cumulative and end at the count', () => {
    expectConsistentHistograms(all);
  });

  it('refuses a client that is not on loopback (through a trusted proxy) with 403', async () => {
    const refused = await send(host.running.url, '/metrics', { headers: { 'x-forwarded-for': '203.0.113.7' } });
    expect(refused.status).toBe(403);
    expect(refused.body).not.toContain('http_server');
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  const TOKEN = 'scrape-token-0123456789abcdef';
  let host: StartedHost;
  beforeAll(async () => {
    host = await startHostInProcess({ METRICS: '1', METRICS_TOKEN: TOKEN });
  });
  afterAll(async () => {
    await host?.stop();
  });

  it('answers 403 without the token, from loopback too, and to a wrong one', async () => {
    const attempts: Array<Record<string, string>> = [{}, { authorization: 'Bearer wrong-token' }, { authorization: `Basic ${TOKEN}` }];
    for (const headers of attempts) {
      const refused = await send(host.running.url, '/metrics', { headers });
      expect(refused.status).toBe(403);
      expect(refused.body).not.toContain('http_server');
    }
  });

  it('answers the exposition to a request bearing it', async () => {
    await send(host.running.url, '/health');
    const scraped = await send(host.running.url, '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(scraped.status).toBe(200);
    promtoolCheck(scraped.body);
    const health = select(samples(scraped.body), `${DURATION}_count`, { route: 'health', status: '200' });
    expect(health.map((sample) => sample.value)).toEqual([1]);
  });
});

describe('METRICS off', () => {
  it('has no /metrics route', async () => {
    const host = await startHostInProcess({});
    try {
      expect((await send(host.running.url, '/metrics')).status).toBe(404);
    } finally {
      await host.stop();
    }
  });
});
