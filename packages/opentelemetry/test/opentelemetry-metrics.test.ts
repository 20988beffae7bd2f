/**
 * The HTTP server metrics through a real node:http server: `MetricsListener` records into a
 * `ServerMetrics`, `OpenTelemetryMetrics` observes it, and the OpenTelemetry SDK's metric reader
 * collects what an exporter would send. The counts must be the ones the Prometheus exposition of
 * the same `ServerMetrics` shows.
 */
import { channel } from 'node:diagnostics_channel';
import {
  AggregationTemporality,
  DataPointType,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type HistogramMetricData,
} from '@opentelemetry/sdk-metrics';
import { defineController, JsonResponse } from '@switchboard/http-kernel';
import { MetricsListener, ServerMetrics } from '@switchboard/metrics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHostServer, type TestServer } from '../../../test/kit/host-kernel.js';
import { INSTRUMENTATION_SCOPE, OpenTelemetryMetrics } from '../src/index.js';

const CHANNEL = 'switchboard.test.otel-metrics.counted';
const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
// Exports when flushed, as at shutdown (the interval is never reached in the test).
const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
const provider = new MeterProvider({ readers: [reader] });
const metrics = new ServerMetrics().countChannel({ channel: CHANNEL, name: 'test_events', help: 'Test events.' });
const stop = new OpenTelemetryMetrics({ meterProvider: provider }).observe(metrics);

let server: TestServer;
beforeAll(async () => {
  server = await startHostServer(
    {
      'GET /hello': defineController([], () => new JsonResponse({ hello: 'world' })),
      'GET /items/:id': defineController(['id'], (id: string) => new JsonResponse({ id })),
    },
    { subscribers: [new MetricsListener(metrics)] },
  );
});
afterAll(async () => {
  stop();
  metrics.close();
  await server?.close();
  await provider.shutdown();
});

describe('OpenTelemetryMetrics', () => {
  it('records the requests ServerMetrics records, with the semantic conventions’ names', async () => {
    for (let i = 0; i < 3; i++) expect((await server.fetch('/hello')).status).toBe(200);
    expect((await server.fetch('/items/7')).status).toBe(200);
    for (let i = 0; i < 20; i++) expect((await server.fetch(`/random/${i}`)).status).toBe(404);
    channel(CHANNEL).publish({});

    await reader.forceFlush();
    const resourceMetrics = exporter.getMetrics().at(-1)!;
    const scope = resourceMetrics.scopeMetrics.find((scoped) => scoped.scope.name === INSTRUMENTATION_SCOPE)!;
    const byName = new Map(scope.metrics.map((metric) => [metric.descriptor.name, metric]));

    const duration = byName.get('http.server.request.duration') as HistogramMetricData;
    expect(duration.dataPointType).toBe(DataPointType.HISTOGRAM);
    expect(duration.descriptor.unit).toBe('s');
    const counts = Object.fromEntries(
      duration.dataPoints.map((point) => [
        `${point.attributes['http.request.method']} ${point.attributes['switchboard.route.name']} ${point.attributes['http.response.status_code']} ${point.attributes['http.route'] ?? '-'}`,
        point.value.count,
      ]),
    );
    expect(counts).toEqual({ 'GET GET /hello 200 /hello': 3, 'GET GET /items/:id 200 /items/:id': 1, 'GET (none) 404 -': 20 });
    expect(duration.dataPoints[0]!.value.buckets.boundaries).toEqual([
      0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
    ]);

    // The same counts as the snapshot the Prometheus exposition writes.
    const snapshotCounts = Object.fromEntries(
      metrics
        .snapshot()
        .requests.map((series) => [`${series.method} ${series.route} ${series.status} ${series.routePath ?? '-'}`, series.duration.count]),
    );
    expect(counts).toEqual(snapshotCounts);

    const active = byName.get('http.server.active_requests')!;
    expect(active.dataPoints.map((point) => point.value)).toEqual([0]);
    const events = byName.get('test_events')!;
    expect(events.dataPoints.map((point) => point.value)).toEqual([1]);
  });
});
