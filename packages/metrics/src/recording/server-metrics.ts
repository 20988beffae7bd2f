import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { ActiveRequestsData, CounterData, MetricsSnapshot } from './metrics-snapshot.js';
import { RequestSeries } from './request-series.js';

/** One main request once its response ended, as `MetricsListener` hands it to `ServerMetrics.requestFinished`. */
export interface FinishedRequest {
  /** As received; methods the HTTP semantic conventions do not name are counted as `_OTHER`. */
  readonly method: string;
  readonly scheme: string;
  /** The matched route's name, null when none matched. */
  readonly route: string | null;
  /** The matched route's path template, null when none matched. */
  readonly routePath: string | null;
  readonly status: number;
  readonly durationSeconds: number;
  /** The declared request body length; null when none was declared. */
  readonly requestBodyBytes: number | null;
  /** The response body's length; null when it was not known (a stream without `Content-Length`). */
  readonly responseBodyBytes: number | null;
  /** The client went away before the response ended. */
  readonly aborted: boolean;
}

/** What a second sink (the OpenTelemetry bridge) is told, as it happens. */
export interface MetricsObserver {
  requestStarted?(method: string, scheme: string): void;
  /** `request.method` is already `_OTHER` for an unknown method, `request.route` null when none matched. */
  requestFinished?(request: FinishedRequest): void;
  counted?(name: string, labels: Readonly<Record<string, string>>): void;
}

/** A counter of messages published on a diagnostics channel by the package that owns the event. */
export interface ChannelCounterOptions<M> {
  /** The channel's name, as its package exports it (`RATE_LIMIT_REFUSED_CHANNEL`…). */
  channel: string;
  /** The counter's name in Prometheus form, without `_total` (`switchboard_rate_limit_refusals`). */
  name: string;
  help: string;
  /** The labels of one message: values from a bounded set only (a limiter's id, never a client's address). */
  labels?: (message: M) => Record<string, string>;
}

/** The route label of requests no route matched. */
export const NO_ROUTE = '(none)';

/** The methods the HTTP semantic conventions name; any other is counted as `_OTHER`, so a client cannot add series. */
const KNOWN_METHODS: ReadonlySet<string> = new Set([
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'DELETE',
  'PATCH',
  'OPTIONS',
  'CONNECT',
  'TRACE',
  'QUERY',
]);

/**
 * The one source of a process's metrics: the request series `MetricsListener` records (series per
 * method, route name, status and scheme, so their number is bounded by the route table, never by
 * the paths clients send), requests in flight, and counters fed by diagnostics channels.
 * `snapshot()` reads them all as plain data, for the Prometheus exposition and for a cluster's primary;
 * observers (the OpenTelemetry bridge) are told of each request as it ends.
 */
export class ServerMetrics {
  readonly startTimeSeconds: number;
  /** route → scheme → method → status → series. */
  readonly #series = new Map<string, Map<string, Map<string, Map<number, RequestSeries>>>>();
  /** `${scheme} ${method}` → requests in flight. */
  readonly #active = new Map<string, { method: string; scheme: string; value: number }>();
  readonly #counters = new Map<string, { name: string; help: string; values: Map<string, CounterData> }>();
  readonly #subscriptions: Array<[string, (message: unknown) => void]> = [];
  #observers: readonly MetricsObserver[] = [];

  constructor(options: { startTimeSeconds?: number } = {}) {
    this.startTimeSeconds = options.startTimeSeconds ?? Math.round(Date.now() - performance.now()) / 1000;
  }

  /** Tells `observer` of every request and count from now on; returns a function that stops it. */
  observe(observer: MetricsObserver): () => void {
    this.#observers = [...this.#observers, observer];
    return () => {
      this.#observers = this.#observers.filter((other) => other !== observer);
    };
  }

  requestStarted(method: string, scheme: string): void {
    const known = KNOWN_METHODS.has(method) ? method : '_OTHER';
    this.#activeFor(known, scheme).value++;
    for (const observer of this.#observers) observer.requestStarted?.(known, scheme);
  }

  requestFinished(request: FinishedRequest): void {
    const method = KNOWN_METHODS.has(request.method) ? request.method : '_OTHER';
    this.#activeFor(method, request.scheme).value--;
    const series = this.#seriesFor(method, request);
    series.duration.record(request.durationSeconds);
    if (request.requestBodyBytes !== null) series.requestBodySize.record(request.requestBodyBytes);
    if (request.responseBodyBytes !== null) series.responseBodySize.record(request.responseBodyBytes);
    if (request.aborted) series.aborted++;
    const observers = this.#observers;
    if (observers.length === 0) return;
    const told = method === request.method ? request : { ...request, method };
    for (const observer of observers) observer.requestFinished?.(told);
  }

  /**
   * Counts each message published on `options.channel` under `options.name`, labelled by
   * `options.labels(message)`. The package that owns the event publishes; this package knows
   * nothing of it. The counter shows (at 0, without labels) from now on, before any message.
   */
  countChannel<M>(options: ChannelCounterOptions<M>): this {
    if (!/^[a-zA-Z_:][a-zA-Z0-9_:]*$/.test(options.name)) throw new RangeError(`"${options.name}" is not a metric name.`);
    const counter = { name: options.name, help: options.help, values: new Map<string, CounterData>() };
    this.#counters.set(options.name, counter);
    const labelsOf = options.labels;
    if (labelsOf === undefined) counter.values.set(JSON.stringify({}), { name: options.name, help: options.help, labels: {}, value: 0 });
    const onMessage = (message: unknown): void => {
      let labels: Record<string, string>;
      try {
        labels = labelsOf === undefined ? {} : labelsOf(message as M);
      } catch {
        labels = {};
      }
      const key = JSON.stringify(labels);
      const current = counter.values.get(key);
      counter.values.set(key, { name: options.name, help: options.help, labels, value: (current?.value ?? 0) + 1 });
      for (const observer of this.#observers) observer.counted?.(options.name, labels);
    };
    subscribe(options.channel, onMessage);
    this.#subscriptions.push([options.channel, onMessage]);
    return this;
  }

  /** Stops counting channel messages (the counts stay). */
  close(): void {
    for (const [channel, onMessage] of this.#subscriptions.splice(0)) unsubscribe(channel, onMessage);
  }

  snapshot(): MetricsSnapshot {
    const requests = [];
    for (const schemes of this.#series.values())
      for (const methods of schemes.values())
        for (const statuses of methods.values()) for (const series of statuses.values()) requests.push(series.data());
    const activeRequests: ActiveRequestsData[] = [...this.#active.values()].map(({ method, scheme, value }) => ({ method, scheme, value }));
    const counters = [...this.#counters.values()].flatMap((counter) => [...counter.values.values()]);
    return { startTimeSeconds: this.startTimeSeconds, requests, activeRequests, counters };
  }

  #activeFor(method: string, scheme: string): { method: string; scheme: string; value: number } {
    const key = scheme === 'https' ? `https ${method}` : method;
    let active = this.#active.get(key);
    if (active === undefined) this.#active.set(key, (active = { method, scheme, value: 0 }));
    return active;
  }

  /** Written out rather than with a helper taking a factory: no closure is made per request. */
  #seriesFor(method: string, request: FinishedRequest): RequestSeries {
    const route = request.route ?? NO_ROUTE;
    let schemes = this.#series.get(route);
    if (schemes === undefined) this.#series.set(route, (schemes = new Map()));
    let methods = schemes.get(request.scheme);
    if (methods === undefined) schemes.set(request.scheme, (methods = new Map()));
    let statuses = methods.get(method);
    if (statuses === undefined) methods.set(method, (statuses = new Map()));
    let series = statuses.get(request.status);
    if (series === undefined) {
      statuses.set(request.status, (series = new RequestSeries(method, route, request.routePath, request.status, request.scheme)));
    }
    return series;
  }
}
