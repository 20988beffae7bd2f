/**
 * @switchboard/opentelemetry — OpenTelemetry spans for Switchboard's kernel requests,
 * sub-requests and listener calls, made from the kernel's tracing channels. Depends on
 * `@opentelemetry/api` only: the application brings the SDK and its exporter.
 * @module
 */
export { INSTRUMENTATION_SCOPE, OpenTelemetryBridge, type OpenTelemetryBridgeOptions } from './opentelemetry-bridge.js';
export type { IncomingContextOption } from './incoming-context.js';
export { ATTR as SPAN_ATTRIBUTES } from './http-attributes.js';
export { OpenTelemetryMetrics, type OpenTelemetryMetricsOptions } from './request-metrics.js';
