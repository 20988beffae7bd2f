// Switchboard: kernel, router, error listener (problem+json for the 404; every response carries its
// default Cache-Control), served by the node adapter. `debug` adds what debug mode adds: the robots
// header, debug error pages and headers, and the profiler (tracing, tokens, a profile per request
// saved in memory on kernel.terminate). `operations` adds @switchboard/operations' listeners:
// request ids with the access line (to a logger that keeps INFO and drops the record), or the
// pressure listener.
// `metrics` adds @switchboard/metrics' listener (alone, or observed by the OpenTelemetry bridge's
// metrics on the SDK with a reader that never exports), or the same instruments in prom-client.
import type { RequestListener } from 'node:http';
import { ErrorListener } from '@switchboard/error-controller';
import {
  DisallowRobotsIndexingListener,
  EventDispatcher,
  HttpKernel,
  JsonResponse,
  defineController,
  nullLogger,
  type KernelEventMap,
  type Logger,
} from '@switchboard/http-kernel';
import { createRequestListener } from '@switchboard/node-adapter';
import { MetricsListener, ServerMetrics } from '@switchboard/metrics';
import { AccessLogListener, PressureListener, PressureMonitor, RequestIdListener } from '@switchboard/operations';
import { OpenTelemetryMetrics } from '@switchboard/opentelemetry';
import { AggregationTemporality, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { PromClientMetricsListener } from './prom-client-metrics.js';
import { Profiler, registerProfiler } from '@switchboard/profiler';
import { RouteCollection, Router, RouterListener } from '@switchboard/router';
import { HELLO_BODY, HELLO_PATH } from '../contract.js';

/** Keeps every level and drops each record: the listeners' own cost, not a log sink's. */
export const droppingLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  fatal() {},
  child: () => droppingLogger,
  isLevelEnabled: () => true,
};

/** The app's dispatcher without the added parts: the hello route, the router, the error listener. */
export function helloDispatcher({ debug = false }: { debug?: boolean } = {}): EventDispatcher<KernelEventMap> {
  const dispatcher = new EventDispatcher<KernelEventMap>();
  const routes = new RouteCollection().add('hello', HELLO_PATH, {
    methods: ['GET'],
    controller: defineController([], () => new JsonResponse(HELLO_BODY), 'hello'),
  });
  dispatcher.addSubscriber(new RouterListener(new Router(routes), { debug }));
  dispatcher.addSubscriber(new ErrorListener({ debug, logger: nullLogger }));
  return dispatcher;
}

export function createListener({
  debug = false,
  operations,
  metrics,
}: {
  debug?: boolean;
  operations?: 'request-id+access-log' | 'pressure';
  metrics?: 'switchboard' | 'switchboard+opentelemetry' | 'prom-client';
} = {}): RequestListener {
  const dispatcher = helloDispatcher({ debug });
  if (operations === 'request-id+access-log') {
    dispatcher.addSubscriber(new RequestIdListener({ logger: droppingLogger }));
    dispatcher.addSubscriber(new AccessLogListener({ logger: droppingLogger }));
  } else if (operations === 'pressure') {
    // Thresholds no bench reaches, and no timer: the listener's cost when not shedding.
    dispatcher.addSubscriber(new PressureListener({ monitor: new PressureMonitor({ maxEventLoopDelayMs: 60_000 }) }));
  }
  if (metrics === 'prom-client') {
    dispatcher.addSubscriber(new PromClientMetricsListener());
  } else if (metrics !== undefined) {
    const recorded = new ServerMetrics();
    dispatcher.addSubscriber(new MetricsListener(recorded));
    if (metrics === 'switchboard+opentelemetry') {
      const meterProvider = new MeterProvider({ readers: [new HeldReader()] });
      new OpenTelemetryMetrics({ meterProvider }).observe(recorded);
    }
  }
  if (!debug) return createRequestListener(new HttpKernel({ dispatcher })) as RequestListener;
  dispatcher.addSubscriber(new DisallowRobotsIndexingListener());
  // The kernel dispatches through the profiler's tracing decorator, as a debug host does.
  const traced = registerProfiler(dispatcher, new Profiler());
  return createRequestListener(new HttpKernel({ dispatcher: traced })) as RequestListener;
}

/** A metric reader that never collects: the SDK aggregates for it, nothing is exported. */
export class HeldReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}
