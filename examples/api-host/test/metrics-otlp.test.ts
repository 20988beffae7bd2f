/**
 * `METRICS=1` with `OTEL_EXPORTER_OTLP_ENDPOINT`: the host as its own process exports the HTTP
 * server metrics over OTLP/HTTP (JSON) to a receiver in this test (a node:http server on 127.0.0.1
 * taking `POST /v1/metrics`; spans, also sent, are accepted and ignored). After the known mix and a
 * scrape of `GET /metrics`, SIGTERM makes the host send what it recorded; the receiver's counts per
 * method, route name and status must be the exposition's.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/kit/services/database-servers.js';
import { promtoolCheck, samples } from '../../../test/kit/prometheus-exposition.js';
import { dropItemsTable, EXPECTED_MIX_COUNTS, mixCounts, send, sendMix } from './support/metrics-mix.js';
import { startHostProcess, type HostProcess } from './support/start-host.js';

/** An OTLP attribute value in the JSON encoding (64-bit integers may come as strings). */
interface OtlpValue {
  stringValue?: string;
  intValue?: number | string;
}
interface OtlpHistogramPoint {
  attributes?: Array<{ key: string; value: OtlpValue }>;
  count: number | string;
  bucketCounts?: Array<number | string>;
  explicitBounds?: number[];
}
interface OtlpMetric {
  name: string;
  unit?: string;
  histogram?: { dataPoints: OtlpHistogramPoint[]; aggregationTemporality?: number };
}
interface OtlpMetricsExport {
  resourceMetrics: Array<{ scopeMetrics: Array<{ scope?: { name?: string }; metrics?: OtlpMetric[] }> }>;
}

const exports: OtlpMetricsExport[] = [];
const receiverErrors: string[] = [];

/** Takes `POST /v1/metrics` (kept) and `POST /v1/traces` (ignored), JSON only. */
const receiver = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const known = request.method === 'POST' && (request.url === '/v1/metrics' || request.url === '/v1/traces');
    if (!known || !String(request.headers['content-type']).startsWith('application/json')) {
      receiverErrors.push(`${request.method} ${request.url} ${request.headers['content-type']}`);
      response.writeHead(404).end();
      return;
    }
    if (request.url === '/v1/metrics') exports.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpMetricsExport);
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});

let postgres: TestDatabase;
let host: HostProcess;
let exposed: Record<string, number>;

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  postgres = await createTestDatabase();
  host = await startHostProcess({
    APP_DEBUG: '0',
    API_HOST_CONFIG: '',
    DATABASE_URL: postgres.connectionString,
    METRICS: '1',
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`,
  });
  const url = await host.url;
  await sendMix(url, () => dropItemsTable(postgres.connectionString));
  const scraped = await send(url, '/metrics');
  expect(scraped.status).toBe(200);
  promtoolCheck(scraped.body);
  exposed = mixCounts(samples(scraped.body));
  // Shutdown exports what was recorded since the last export (the default interval is a minute).
  host.child.kill('SIGTERM');
  expect(await host.exited).toBe(0);
});

afterAll(async () => {
  if (host !== undefined && host.child.exitCode === null && host.child.signalCode === null) {
    host.child.kill('SIGTERM');
    await host.exited;
  }
  await postgres?.stop();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

const attribute = (point: OtlpHistogramPoint, key: string): string => {
  const value = point.attributes?.find((entry) => entry.key === key)?.value;
  return String(value?.stringValue ?? value?.intValue ?? '');
};

describe('OTLP metrics export', () => {
  it('sends the same counts as the exposition, as cumulative histograms', () => {
    expect(receiverErrors).toEqual([]);
    expect(exposed).toEqual(EXPECTED_MIX_COUNTS);
    // Cumulative: the last export holds every count.
    const last = exports.at(-1)!;
    const duration = last.resourceMetrics
      .flatMap((resource) => resource.scopeMetrics)
      .filter((scope) => scope.scope?.name === '@switchboard/opentelemetry')
      .flatMap((scope) => scope.metrics ?? [])
      .find((metric) => metric.name === 'http.server.request.duration')!;
    expect(duration.unit).toBe('s');
    expect(duration.histogram?.aggregationTemporality).toBe(2); // CUMULATIVE
    const counts: Record<string, number> = {};
    for (const point of duration.histogram!.dataPoints) {
      const route = attribute(point, 'switchboard.route.name');
      if (route === 'metrics') continue;
      const key = `${attribute(point, 'http.request.method')} ${route} ${attribute(point, 'http.response.status_code')}`;
      counts[key] = (counts[key] ?? 0) + Number(point.count);
      expect(point.bucketCounts?.reduce((sum: number, count) => sum + Number(count), 0)).toBe(Number(point.count));
    }
    expect(counts).toEqual(exposed);
  });
});
