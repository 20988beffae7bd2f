import { BODY_SIZE_BUCKETS, DURATION_BUCKETS } from '../recording/buckets.js';
import type { HistogramData } from '../recording/histogram-counts.js';
import type { MetricsSnapshot, RequestSeriesData } from '../recording/metrics-snapshot.js';

/** The media type of Prometheus' text exposition format 0.0.4. */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** Prometheus names of the HTTP server instruments (the OpenTelemetry names with units, as Prometheus' own conversion writes them). */
export const PROMETHEUS_NAMES = {
  requestDuration: 'http_server_request_duration_seconds',
  activeRequests: 'http_server_active_requests',
  requestBodySize: 'http_server_request_body_size_bytes',
  responseBodySize: 'http_server_response_body_size_bytes',
  abortedRequests: 'http_server_aborted_requests_total',
  processStartTime: 'process_start_time_seconds',
} as const;

/**
 * `snapshot` in Prometheus' text exposition format (version 0.0.4): a `# HELP` and `# TYPE` line
 * per metric, histograms as cumulative `_bucket` lines (up to `le="+Inf"`) with `_sum` and
 * `_count`, counters ending in `_total`, label values escaped (`\\`, `\"`, `\n`).
 */
export function prometheusText(snapshot: MetricsSnapshot): string {
  const lines: string[] = [];
  const requests = snapshot.requests;
  family(lines, PROMETHEUS_NAMES.requestDuration, 'histogram', 'Duration of HTTP server requests, until the response ended.');
  for (const series of requests)
    histogram(lines, PROMETHEUS_NAMES.requestDuration, requestLabels(series), DURATION_BUCKETS, series.duration);
  family(lines, PROMETHEUS_NAMES.requestBodySize, 'histogram', 'Size of HTTP server request bodies with a declared length.');
  for (const series of requests) {
    if (series.requestBodySize.count > 0)
      histogram(lines, PROMETHEUS_NAMES.requestBodySize, requestLabels(series), BODY_SIZE_BUCKETS, series.requestBodySize);
  }
  family(lines, PROMETHEUS_NAMES.responseBodySize, 'histogram', 'Size of HTTP server response bodies of known length.');
  for (const series of requests) {
    if (series.responseBodySize.count > 0)
      histogram(lines, PROMETHEUS_NAMES.responseBodySize, requestLabels(series), BODY_SIZE_BUCKETS, series.responseBodySize);
  }
  family(lines, PROMETHEUS_NAMES.abortedRequests, 'counter', 'HTTP server requests whose client went away before the response ended.');
  for (const series of requests) {
    if (series.aborted > 0) lines.push(`${PROMETHEUS_NAMES.abortedRequests}${labelSet(requestLabels(series))} ${series.aborted}`);
  }
  family(lines, PROMETHEUS_NAMES.activeRequests, 'gauge', 'HTTP server requests being handled.');
  for (const active of snapshot.activeRequests) {
    lines.push(
      `${PROMETHEUS_NAMES.activeRequests}${labelSet([
        ['method', active.method],
        ['scheme', active.scheme],
      ])} ${active.value}`,
    );
  }
  const counters = new Map<string, Array<MetricsSnapshot['counters'][number]>>();
  for (const counter of snapshot.counters) counters.set(counter.name, [...(counters.get(counter.name) ?? []), counter]);
  for (const [name, values] of counters) {
    family(lines, `${name}_total`, 'counter', values[0]!.help);
    for (const value of values) lines.push(`${name}_total${labelSet(Object.entries(value.labels))} ${value.value}`);
  }
  family(lines, PROMETHEUS_NAMES.processStartTime, 'gauge', 'When the counts began, in seconds since the epoch.');
  lines.push(`${PROMETHEUS_NAMES.processStartTime} ${snapshot.startTimeSeconds}`);
  return `${lines.join('\n')}\n`;
}

function family(lines: string[], name: string, type: 'histogram' | 'counter' | 'gauge', help: string): void {
  lines.push(`# HELP ${name} ${help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}`, `# TYPE ${name} ${type}`);
}

function requestLabels(series: RequestSeriesData): Array<[string, string]> {
  return [
    ['method', series.method],
    ['route', series.route],
    ['status', String(series.status)],
    ['scheme', series.scheme],
  ];
}

function histogram(lines: string[], name: string, labels: Array<[string, string]>, bounds: readonly number[], data: HistogramData): void {
  let cumulative = 0;
  for (let i = 0; i < bounds.length; i++) {
    cumulative += data.counts[i] ?? 0;
    lines.push(`${name}_bucket${labelSet([...labels, ['le', String(bounds[i])]])} ${cumulative}`);
  }
  lines.push(`${name}_bucket${labelSet([...labels, ['le', '+Inf']])} ${data.count}`);
  lines.push(`${name}_sum${labelSet(labels)} ${number(data.sum)}`, `${name}_count${labelSet(labels)} ${data.count}`);
}

function labelSet(labels: ReadonlyArray<readonly [string, string]>): string {
  if (labels.length === 0) return '';
  return `{${labels.map(([name, value]) => `${name}="${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`).join(',')}}`;
}

function number(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(value);
}
