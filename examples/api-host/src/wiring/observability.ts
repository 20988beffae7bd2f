import { ServerTimingListener } from '@switchboard/http-kernel';
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
 */
export async function wireObservability(host: HostContext): Promise<Wiring> {
  const env = host.env;
  const subscribers = host.debug
    ? [new ServerTimingListener({ tokenHeader: DEBUG_TOKEN_HEADER })]
    : isOn(env['SERVER_TIMING'])
      ? [new ServerTimingListener()]
      : [];

  if (!isSet(env['OTEL_EXPORTER_OTLP_ENDPOINT']) && !isSet(env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'])) return { subscribers };
  const [{ OTLPTraceExporter }, { resourceFromAttributes }, { BatchSpanProcessor, NodeTracerProvider }, { OpenTelemetryBridge }] =
    await Promise.all([
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/sdk-trace-node'),
      import('@switchboard/opentelemetry'),
    ]);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({
      'service.name': isSet(env['OTEL_SERVICE_NAME']) ? env['OTEL_SERVICE_NAME']!.trim() : DEFAULT_SERVICE_NAME,
    }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  // The global tracer provider, AsyncLocalStorage context manager and W3C trace-context propagator.
  provider.register();
  const bridge = new OpenTelemetryBridge({
    tracerProvider: provider,
    listenerSpans: isOn(env['OTEL_SWITCHBOARD_LISTENER_SPANS']),
  }).enable();
  return {
    subscribers,
    onShutdown: async () => {
      bridge.disable();
      await provider.shutdown();
    },
  };
}

function isSet(value: string | undefined): boolean {
  return value !== undefined && value.trim() !== '';
}

/** `1`, `true`, `on` or `yes` (any case). */
export function isOn(value: string | undefined): boolean {
  return value !== undefined && ['1', 'true', 'on', 'yes'].includes(value.trim().toLowerCase());
}
