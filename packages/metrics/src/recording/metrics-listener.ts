import { declaredLength, knownBodyLength } from '@switchboard/http-kernel/internal';
import { EventStreamResponse } from '@switchboard/http-kernel/sse';
import type { EventSubscriber, KernelEventMap, RequestEvent, SubscribedEvents, TerminateEvent } from '@switchboard/http-kernel';
import type { ServerMetrics } from './server-metrics.js';

declare module '@switchboard/http-kernel' {
  interface RequestAttributes {
    /** `performance.now()` when the first `kernel.request` listener ran (`MetricsListener`). */
    _metrics_started?: number;
  }
}

/**
 * Records every main request in `ServerMetrics`, the way the OpenTelemetry HTTP semantic
 * conventions measure a server request:
 *
 * - `kernel.request` (`REQUEST_PRIORITY`, before every other listener, so requests refused early,
 *   shed or rate-limited, are counted): the request is in flight from now on.
 * - `kernel.terminate` (`TERMINATE_PRIORITY`): the response ended (the node adapter runs it once the
 *   last byte went out, or the client went away, so a streamed body counts until its end); its
 *   duration, status, route and body sizes are recorded.
 *
 * Sub-requests (the error page's) are part of their main request, not requests of their own.
 */
export class MetricsListener implements EventSubscriber<KernelEventMap> {
  static readonly REQUEST_PRIORITY = 16384;
  static readonly TERMINATE_PRIORITY = 0;

  readonly #metrics: ServerMetrics;

  constructor(metrics: ServerMetrics) {
    this.#metrics = metrics;
  }

  getSubscribedEvents(): SubscribedEvents<KernelEventMap> {
    return {
      'kernel.request': [this.onKernelRequest, MetricsListener.REQUEST_PRIORITY, { mainRequestOnly: true }],
      'kernel.terminate': [this.onKernelTerminate, MetricsListener.TERMINATE_PRIORITY],
    };
  }

  onKernelRequest(event: RequestEvent): void {
    const request = event.request;
    request.attributes.set('_metrics_started', performance.now());
    this.#metrics.requestStarted(request.method, request.scheme);
  }

  onKernelTerminate(event: TerminateEvent): void {
    const { request, response } = event;
    const started = request.attributes.get('_metrics_started');
    if (started === undefined) return;
    const attributes = request.attributes;
    this.#metrics.requestFinished({
      method: request.method,
      scheme: request.scheme,
      route: attributes.get('_route') ?? null,
      routePath: attributes.get('_route_path') ?? null,
      status: response.status,
      durationSeconds: (performance.now() - started) / 1000,
      // No body (neither a length nor chunks announced): no header to read.
      requestBodyBytes: request.body === null ? null : declaredLength(request.headers.get('content-length')),
      responseBodyBytes: knownBodyLength(request, response),
      aborted: response instanceof EventStreamResponse && response.outcome?.ending === 'client-gone',
    });
  }
}
