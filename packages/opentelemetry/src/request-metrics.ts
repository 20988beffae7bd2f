import {
  metrics,
  type Attributes,
  type Counter,
  type Histogram,
  type Meter,
  type MeterProvider,
  type UpDownCounter,
} from '@opentelemetry/api';
import {
  BODY_SIZE_BUCKETS,
  DURATION_BUCKETS,
  NO_ROUTE,
  type FinishedRequest,
  type MetricsObserver,
  type ServerMetrics,
} from '@switchboard/metrics';
import { INSTRUMENTATION_SCOPE } from './opentelemetry-bridge.js';

export interface OpenTelemetryMetricsOptions {
  /** Where the meter comes from; defaults to the global provider (the one the SDK registered). */
  meterProvider?: MeterProvider;
}

/**
 * The OpenTelemetry HTTP server metrics, fed by a `ServerMetrics` (`@switchboard/metrics`): the
 * same requests the Prometheus exposition counts, recorded into OpenTelemetry instruments as each
 * one ends, so that the SDK's exporter (OTLP…) sends them. Instruments: `http.server.request.duration`
 * (s, the conventions' buckets), `http.server.active_requests`, `http.server.request.body.size` and
 * `http.server.response.body.size` (By), `switchboard.http.server.aborted_requests`; counters that
 * `ServerMetrics.countChannel` feeds, under their own names. Attributes: `http.request.method`,
 * `url.scheme`, `http.response.status_code`, `http.route` (the path template, when a route matched)
 * and `switchboard.route.name` (the route's name, `(none)` when none matched).
 */
export class OpenTelemetryMetrics {
  readonly #meter: Meter;
  readonly #duration: Histogram;
  readonly #active: UpDownCounter;
  readonly #requestBodySize: Histogram;
  readonly #responseBodySize: Histogram;
  readonly #aborted: Counter;
  readonly #counters = new Map<string, Counter>();

  constructor(options: OpenTelemetryMetricsOptions = {}) {
    const meter = (this.#meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(INSTRUMENTATION_SCOPE));
    this.#duration = meter.createHistogram('http.server.request.duration', {
      unit: 's',
      description: 'Duration of HTTP server requests.',
      advice: { explicitBucketBoundaries: [...DURATION_BUCKETS] },
    });
    this.#active = meter.createUpDownCounter('http.server.active_requests', {
      unit: '{request}',
      description: 'Number of active HTTP server requests.',
    });
    this.#requestBodySize = meter.createHistogram('http.server.request.body.size', {
      unit: 'By',
      description: 'Size of HTTP server request bodies.',
      advice: { explicitBucketBoundaries: [...BODY_SIZE_BUCKETS] },
    });
    this.#responseBodySize = meter.createHistogram('http.server.response.body.size', {
      unit: 'By',
      description: 'Size of HTTP server response bodies.',
      advice: { explicitBucketBoundaries: [...BODY_SIZE_BUCKETS] },
    });
    this.#aborted = meter.createCounter('switchboard.http.server.aborted_requests', {
      unit: '{request}',
      description: 'HTTP server requests whose client went away before the response ended.',
    });
  }

  /** Records what `source` records from now on; returns a function that stops it. */
  observe(source: ServerMetrics): () => void {
    const observer: MetricsObserver = {
      requestStarted: (method, scheme) => this.#active.add(1, { 'http.request.method': method, 'url.scheme': scheme }),
      requestFinished: (request) => this.#finished(request),
      counted: (name, labels) => this.#counter(name).add(1, labels),
    };
    return source.observe(observer);
  }

  #finished(request: FinishedRequest): void {
    this.#active.add(-1, { 'http.request.method': request.method, 'url.scheme': request.scheme });
    // Literal keys: see docs/decisions.md, Observability.
    const attributes: Attributes = {
      'http.request.method': request.method,
      'url.scheme': request.scheme,
      'http.response.status_code': request.status,
      'switchboard.route.name': request.route ?? NO_ROUTE,
    };
    if (request.routePath !== null) attributes['http.route'] = request.routePath;
    this.#duration.record(request.durationSeconds, attributes);
    if (request.requestBodyBytes !== null) this.#requestBodySize.record(request.requestBodyBytes, attributes);
    if (request.responseBodyBytes !== null) this.#responseBodySize.record(request.responseBodyBytes, attributes);
    if (request.aborted) this.#aborted.add(1, attributes);
  }

  #counter(name: string): Counter {
    let counter = this.#counters.get(name);
    if (counter === undefined) this.#counters.set(name, (counter = this.#meter.createCounter(name)));
    return counter;
  }
}
