/**
 * @switchboard/metrics — request rate, errors and duration per route (OpenTelemetry's HTTP server
 * metrics), recorded from the kernel's events into one `ServerMetrics`, read as a Prometheus
 * exposition (`prometheusController`), totalled across cluster workers, and observed by the
 * OpenTelemetry bridge for OTLP.
 * @module
 */
export { BODY_SIZE_BUCKETS, DURATION_BUCKETS } from './recording/buckets.js';
export type { HistogramData } from './recording/histogram-counts.js';
export type { ActiveRequestsData, CounterData, MetricsSnapshot, RequestSeriesData } from './recording/metrics-snapshot.js';
export {
  NO_ROUTE,
  ServerMetrics,
  type ChannelCounterOptions,
  type FinishedRequest,
  type MetricsObserver,
} from './recording/server-metrics.js';
export { MetricsListener } from './recording/metrics-listener.js';
export { PROMETHEUS_CONTENT_TYPE, PROMETHEUS_NAMES, prometheusText } from './prometheus/prometheus-text.js';
export { prometheusController, type SnapshotSource } from './prometheus/prometheus-controller.js';
export { mergeSnapshots } from './recording/merge-snapshots.js';
export { ClusterMetricsPrimary, type ClusterMetricsPrimaryOptions } from './cluster/cluster-metrics-primary.js';
export { ClusterMetricsWorker } from './cluster/cluster-metrics-worker.js';
