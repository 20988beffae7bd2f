import type { HistogramData } from './histogram-counts.js';

/** The requests of one series: one method, route, status and scheme. */
export interface RequestSeriesData {
  /** The request method; `_OTHER` for one the HTTP semantic conventions do not name. */
  readonly method: string;
  /** The matched route's name; `(none)` when no route matched (404, 405, a request refused before routing). */
  readonly route: string;
  /** The matched route's path template (`/items/:id`); null when no route matched. */
  readonly routePath: string | null;
  readonly status: number;
  /** `http` or `https`. */
  readonly scheme: string;
  /** Seconds from the first `kernel.request` listener to the end of the response (a streamed body's last byte). */
  readonly duration: HistogramData;
  /** Request bodies whose length was declared (`Content-Length`), in bytes. */
  readonly requestBodySize: HistogramData;
  /** Response bodies whose length was known, in bytes (0 for HEAD, 204, 304). */
  readonly responseBodySize: HistogramData;
  /** Of `duration.count`, the requests whose client went away before the response ended. */
  readonly aborted: number;
}

/** Requests being handled now, per method and scheme (the route is not known when a request starts). */
export interface ActiveRequestsData {
  readonly method: string;
  readonly scheme: string;
  readonly value: number;
}

/** A counter fed by a diagnostics channel (`ServerMetrics.countChannel`), per label set. */
export interface CounterData {
  /** Its name without the `_total` the exposition adds. */
  readonly name: string;
  readonly help: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** Everything recorded, as plain data: what the exposition writes, and what cluster workers send their primary. */
export interface MetricsSnapshot {
  /** When counting began, in seconds since the epoch: Prometheus' `process_start_time_seconds`. */
  readonly startTimeSeconds: number;
  readonly requests: readonly RequestSeriesData[];
  readonly activeRequests: readonly ActiveRequestsData[];
  readonly counters: readonly CounterData[];
}
