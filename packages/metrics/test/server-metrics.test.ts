/**
 * The metrics of a kernel wired as a host wires it (real router, real error listener), served by
 * the node adapter on 127.0.0.1 and called over HTTP; the exposition is read over HTTP too and
 * checked by Prometheus' own parser (`promtool check metrics`).
 *
 * Each answer's `kernel.terminate` (where a request is recorded) runs on the loop turn after the
 * answer was written, before the server can read the next request from a socket: a scrape sent
 * after the last answer arrived sees every request before it.
 */
import { channel } from 'node:diagnostics_channel';
import { defineController, JsonResponse, type Request } from '@switchboard/http-kernel';
import { EventStreamResponse } from '@switchboard/http-kernel/sse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHostServer, type TestServer } from '../../../test/kit/host-kernel.js';
import { promtoolCheck, samples, select, type Sample } from '../../../test/kit/prometheus-exposition.js';
import { MetricsListener, PROMETHEUS_CONTENT_TYPE, prometheusController, prometheusText, ServerMetrics } from '../src/index.js';

const COUNTED_CHANNEL = 'switchboard.test.metrics.counted';

const UNLABELLED_CHANNEL = 'switchboard.test.metrics.unlabelled';

const metrics = new ServerMetrics()
  .countChannel<{ kind: string }>({
    channel: COUNTED_CHANNEL,
    name: 'test_refusals',
    help: 'Refusals published by the test.',
    labels: (message) => ({ kind: message.kind }),
  })
  .countChannel({ channel: UNLABELLED_CHANNEL, name: 'test_drops', help: 'Drops published by the test.' });

let server: TestServer;
beforeAll(async () => {
  server = await startHostServer(
    {
      'GET /hello': defineController([], () => new JsonResponse({ hello: 'world' })),
      'GET /items/:id': defineController(['id'], (id: string) => new JsonResponse({ id })),
      'POST /items': defineController([], () => new JsonResponse({ created: true }, 201)),
      'GET /fail': defineController([], () => {
        throw new Error('broken on purpose');
      }),
      'GET /events': defineController(
        ['request'],
        (request: Request) =>
          new EventStreamResponse(request, async function* () {
            yield { data: 'one' };
            yield { data: 'two' };
          }),
      ),
      'GET /endless': defineController(
        ['request'],
        (request: Request) =>
          new EventStreamResponse(request, async function* ({ signal }) {
            yield { data: 'first' };
            await new Promise((resolve) => signal.addEventListener('abort', resolve));
          }),
      ),
      'GET /metrics': prometheusController(() => metrics.snapshot()),
    },
    { subscribers: [new MetricsListener(metrics)] },
  );
});
afterAll(async () => {
  await server?.close();
  metrics.close();
});

async function scrape(): Promise<{ text: string; all: Sample[] }> {
  const answer = await server.fetch('/metrics');
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toBe(PROMETHEUS_CONTENT_TYPE);
  expect(answer.headers.get('cache-control')).toContain('no-store');
  promtoolCheck(answer.body);
  return { text: answer.body, all: samples(answer.body) };
}

const DURATION = 'http_server_request_duration_seconds';

function count(all: readonly Sample[], labels: Record<string, string>): number {
  return select(all, `${DURATION}_count`, labels).reduce((sum, sample) => sum + sample.value, 0);
}

describe('a known mix of requests', () => {
  let all: Sample[];
  beforeAll(async () => {
    for (let i = 0; i < 5; i++) expect((await server.fetch('/hello')).status).toBe(200);
    for (let i = 1; i <= 3; i++) expect((await server.fetch(`/items/${i}`)).status).toBe(200);
    const body = JSON.stringify({ name: 'a' });
    expect((await server.fetch('/items', { method: 'POST', body, headers: { 'content-type': 'application/json' } })).status).toBe(201);
    for (let i = 0; i < 500; i++) expect((await server.fetch(`/scan/${Math.random().toString(36).slice(2)}/${i}`)).status).toBe(404);
    expect((await server.fetch('/hello', { method: 'DELETE' })).status).toBe(405);
    expect((await server.fetch('/fail')).status).toBe(500);
    ({ all } = await scrape());
  });

  it('counts each route and status exactly, by route name', () => {
    expect(count(all, { route: 'GET /hello', status: '200', method: 'GET', scheme: 'http' })).toBe(5);
    expect(count(all, { route: 'GET /items/:id', status: '200' })).toBe(3);
    expect(count(all, { route: 'POST /items', status: '201', method: 'POST' })).toBe(1);
    expect(count(all, { route: '(none)', status: '404', method: 'GET' })).toBe(500);
    expect(count(all, { route: '(none)', status: '405', method: 'DELETE' })).toBe(1);
    expect(count(all, { route: 'GET /fail', status: '500' })).toBe(1);
  });

  it('adds one series per status for the requests no route matched, never one per path', () => {
    const unrouted = select(all, `${DURATION}_count`, { route: '(none)' });
    expect(unrouted.map((sample) => `${sample.labels['method']} ${sample.labels['status']}`).sort()).toEqual(['DELETE 405', 'GET 404']);
    expect(all.some((sample) => Object.values(sample.labels).some((value) => value.includes('/scan/')))).toBe(false);
  });

  it('writes cumulative buckets that end at the count', () => {
    for (const total of select(all, `${DURATION}_count`)) {
      const buckets = select(all, `${DURATION}_bucket`, total.labels);
      expect(buckets.length).toBe(15);
      for (let i = 1; i < buckets.length; i++) expect(buckets[i]!.value).toBeGreaterThanOrEqual(buckets[i - 1]!.value);
      expect(buckets.at(-1)!.labels['le']).toBe('+Inf');
      expect(buckets.at(-1)!.value).toBe(total.value);
    }
  });

  it('records declared request body sizes and known response body sizes', () => {
    const posted = select(all, 'http_server_request_body_size_bytes_sum', { route: 'POST /items' });
    expect(posted.map((sample) => sample.value)).toEqual([JSON.stringify({ name: 'a' }).length]);
    // GETs declare no body: they have no request body size.
    expect(select(all, 'http_server_request_body_size_bytes_count', { route: 'GET /hello' })).toEqual([]);
    const hello = select(all, 'http_server_response_body_size_bytes_sum', { route: 'GET /hello' });
    expect(hello.map((sample) => sample.value)).toEqual([5 * JSON.stringify({ hello: 'world' }).length]);
  });

  it('shows the scrape itself as the one request in flight, and when counting began', () => {
    expect(select(all, 'http_server_active_requests', { method: 'GET', scheme: 'http' }).map((sample) => sample.value)).toEqual([1]);
    const start = select(all, 'process_start_time_seconds')[0]!.value;
    expect(start).toBe(metrics.startTimeSeconds);
    expect(start).toBeLessThanOrEqual(Date.now() / 1000);
  });
});

describe('streamed responses', () => {
  it('are recorded once the stream ended, without a body size', async () => {
    const before = count((await scrape()).all, { route: 'GET /events' });
    const answer = await server.fetch('/events');
    expect(answer.body).toContain('data: two');
    const { all } = await scrape();
    expect(count(all, { route: 'GET /events', status: '200' })).toBe(before + 1);
    expect(select(all, 'http_server_response_body_size_bytes_count', { route: 'GET /events' })).toEqual([]);
  });

  it('count a client that left before the end as an aborted request', async () => {
    const leaving = new AbortController();
    const answer = await fetch(`${server.origin}/endless`, { signal: leaving.signal });
    const reader = answer.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('data: first');
    leaving.abort();
    // The server learns of it when the connection closes: scraped until then (bounded).
    let aborted: Sample[] = [];
    for (let attempt = 0; attempt < 200 && aborted.length === 0; attempt++) {
      aborted = select((await scrape()).all, 'http_server_aborted_requests_total', { route: 'GET /endless' });
    }
    expect(aborted.map((sample) => `${sample.labels['status']} ${sample.value}`)).toEqual(['200 1']);
  });
});

describe('counters fed by diagnostics channels', () => {
  it('count each message by the labels the owner gave it', async () => {
    const published = channel(COUNTED_CHANNEL);
    published.publish({ kind: 'login' });
    published.publish({ kind: 'login' });
    published.publish({ kind: 'rate "limit"\\' });
    const { all } = await scrape();
    expect(select(all, 'test_refusals_total', { kind: 'login' }).map((sample) => sample.value)).toEqual([2]);
    expect(select(all, 'test_refusals_total', { kind: 'rate "limit"\\' }).map((sample) => sample.value)).toEqual([1]);
  });

  it('show a counter without labels at 0 before any message, then as one series', async () => {
    expect(select((await scrape()).all, 'test_drops_total').map((sample) => sample.value)).toEqual([0]);
    channel(UNLABELLED_CHANNEL).publish({});
    channel(UNLABELLED_CHANNEL).publish({});
    expect(select((await scrape()).all, 'test_drops_total').map((sample) => sample.value)).toEqual([2]);
  });
});

describe('the exposition text', () => {
  it('escapes label values so that Prometheus reads them back', () => {
    const odd = 'say "hi"\\\nthere';
    const local = new ServerMetrics({ startTimeSeconds: 1_700_000_000 });
    local.requestStarted('BREW', 'https');
    local.requestFinished({
      method: 'BREW',
      scheme: 'https',
      route: odd,
      routePath: '/odd',
      status: 418,
      durationSeconds: 0.2,
      requestBodyBytes: null,
      responseBodyBytes: 0,
      aborted: true,
    });
    const text = prometheusText(local.snapshot());
    promtoolCheck(text);
    const all = samples(text);
    expect(select(all, `${DURATION}_count`, { route: odd, method: '_OTHER', scheme: 'https', status: '418' })[0]?.value).toBe(1);
    expect(select(all, 'http_server_aborted_requests_total', { route: odd })[0]?.value).toBe(1);
    expect(select(all, 'http_server_active_requests', { method: '_OTHER' })[0]?.value).toBe(0);
    expect(select(all, 'process_start_time_seconds')[0]?.value).toBe(1_700_000_000);
  });

  it('is valid with nothing recorded yet', () => {
    expect(() => promtoolCheck(prometheusText(new ServerMetrics().snapshot()))).not.toThrow();
  });
});
