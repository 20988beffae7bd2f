import { hostname } from 'node:os';
import type { Resource } from '@opentelemetry/resources';
import { ServerTimingListener } from '@switchboard/http-kernel/tracing';
import type { ServerMetrics } from '@switchboard/metrics';
import { DEBUG_TOKEN_HEADER } from '@switchboard/profiler';
import type { HostContext, Wiring } from './wiring.js';

/** The service name spans are reported under when `OTEL_SERVICE_NAME` names none. */
export const DEFAULT_SERVICE_NAME = 'switchboard-api-host';

/**
 * `Server-Timing` on every response in debug mode (the total described by the profile's token),
 * and in production mode only with `SERVER_TIMING=1`: timings tell an observer how long the
 * server's work took.
 *
 * OpenTelemetry traces when `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`)
 * names a collector: the SDK's Node tracer provider, batched OTLP/HTTP (JSON) export configured
 * by the standard `OTEL_*` variables, and the bridge's spans; `OTEL_SWITCHBOARD_LISTENER_SPANS=1`
 * adds a span per listener call. Spans still queued are sent at shutdown. The SDK is loaded only
 * in that case: loaded at every start, it was a third of the host's start-up time.
 *
 * With `METRICS=1` (`metrics`) and `OTEL_EXPORTER_OTLP_ENDPOINT` (or `…_METRICS_ENDPOINT`), the
 * HTTP server metrics go there too, every `OTEL_METRIC_EXPORT_INTERVAL` ms and at shutdown.
 */
export async function wireObservability(host: HostContext, metrics: ServerMetrics | null = null): Promise<Wiring> {
  const env = host.env;
  const subscribers = host.debug
    ? [new ServerTimingListener({ tokenHeader: DEBUG_TOKEN_HEADER })]
    : isOn(env['SERVER_TIMING'])
      ? [new ServerTimingListener()]
      : [];
  const traced = isSet(env['OTEL_EXPORTER_OTLP_ENDPOINT']) || isSet(env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']);
  const metered = metrics !== null && (isSet(env['OTEL_EXPORTER_OTLP_ENDPOINT']) || isSet(env['OTEL_EXPORTER_OTLP_METRICS_ENDPOINT']));
  const shutdowns = await Promise.all([traced ? startTracing(env) : null, metered ? startMetricsExport(env, metrics) : null]);
  const running = shutdowns.filter((shutdown) => shutdown !== null);
  if (running.length === 0) return { subscribers };
  return {
    subscribers,
    onShutdown: async () => {
      await Promise.all(running.map((shutdown) => shutdown()));
    },
  };
}

/** The SDK's tracer provider, registered globally, and the bridge's spans; returns what stops them (sending the spans still queued). */
async function startTracing(env: NodeJS.ProcessEnv): Promise<() => Promise<void>> {
  const [{ OTLPTraceExporter }, { BatchSpanProcessor, NodeTracerProvider }, { OpenTelemetryBridge }] = await Promise.all([
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/sdk-trace-node'),
    import('@switchboard/opentelemetry'),
  ]);
  const provider = new NodeTracerProvider({
    resource: await serviceResource(env),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  // The global tracer provider, AsyncLocalStorage context manager and W3C trace-context propagator.
  provider.register();
  const bridge = new OpenTelemetryBridge({
    tracerProvider: provider,
    listenerSpans: isOn(env['OTEL_SWITCHBOARD_LISTENER_SPANS']),
  }).enable();
  return async () => {
    bridge.disable();
    await provider.shutdown();
  };
}

/**
 * The SDK's meter provider with OTLP/HTTP (JSON) export every `OTEL_METRIC_EXPORT_INTERVAL` ms
 * (default 60 000), fed by the same `ServerMetrics` as `GET /metrics`; returns what stops it
 * (sending what was recorded since the last export).
 */
async function startMetricsExport(env: NodeJS.ProcessEnv, metrics: ServerMetrics): Promise<() => Promise<void>> {
  const [{ OTLPMetricExporter }, { MeterProvider, PeriodicExportingMetricReader }, { OpenTelemetryMetrics }] = await Promise.all([
    import('@opentelemetry/exporter-metrics-otlp-http'),
    import('@opentelemetry/sdk-metrics'),
    import('@switchboard/opentelemetry'),
  ]);
  const interval = Number(env['OTEL_METRIC_EXPORT_INTERVAL'] ?? '');
  const provider = new MeterProvider({
    resource: await serviceResource(env),
    readers: [
      new PeriodicExportingMetricReader({
        exporter: new OTLPMetricExporter(),
        exportIntervalMillis: Number.isInteger(interval) && interval > 0 ? interval : 60_000,
      }),
    ],
  });
  const stop = new OpenTelemetryMetrics({ meterProvider: provider }).observe(metrics);
  return async () => {
    stop();
    await provider.shutdown();
  };
}

/**
 * `service.name` (`OTEL_SERVICE_NAME`, default `switchboard-api-host`) and `service.instance.id`
 * (this process: each cluster worker sends its own cumulative counts, which a collector must not mix).
 */
async function serviceResource(env: NodeJS.ProcessEnv): Promise<Resource> {
  const { resourceFromAttributes } = await import('@opentelemetry/resources');
  return resourceFromAttributes({
    'service.name': isSet(env['OTEL_SERVICE_NAME']) ? env['OTEL_SERVICE_NAME']!.trim() : DEFAULT_SERVICE_NAME,
    'service.instance.id': `${hostname()}:${process.pid}`,
  });
}

function isSet(value: string | undefined): boolean {
  return value !== undefined && value.trim() !== '';
}

/** `1`, `true`, `on` or `yes` (any case). */
export function isOn(value: string | undefined): boolean {
  return value !== undefined && ['1', 'true', 'on', 'yes'].includes(value.trim().toLowerCase());
}
