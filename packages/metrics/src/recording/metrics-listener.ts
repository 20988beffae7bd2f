import { declaredLength, knownBodyLength } from '@switchboard/http-kernel/internal';
import { EventStreamResponse } from '@switchboard/http-kernel/sse';
import type { EventSubscriber, KernelEventMap, RequestEvent, Response, SubscribedEvents, TerminateEvent } from '@switchboard/http-kernel';
import type { ServerMetrics } from './server-metrics.js';

/**
 * Records every main request in `ServerMetrics`, the way the OpenTelemetry HTTP semantic
 * conventions measure a server request:
 *
 * - `kernel.request` (`REQUEST_PRIORITY`, before every other listener, so requests refused early,
 *   shed or rate-limited, are counted): the request is in flight from now on.
 * - `kernel.terminate` (`TERMINATE_PRIORITY`): the response ended (the node adapter runs it once the
 *   last byte went out, or the client went away, so a streamed body counts until its end); its
 *   duration, status, route and body sizes are recorded, and it counts as aborted when the host
 *   says that the response did not go out in full (`TerminateEvent.responseFinished`).
 *
 * The duration runs from `request.startTiming()` to `TerminateEvent.endTime`: clock readings shared
 * with whatever else times the request (the access log, `Server-Timing`).
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
    request.startTiming();
    this.#metrics.requestStarted(request.method, request.scheme);
  }

  onKernelTerminate(event: TerminateEvent): void {
    const { request, response } = event;
    // Not timed: refused by a listener placed before this one's, so never counted as started.
    const started = request.startTime;
    if (started === undefined) return;
    const attributes = request.attributes;
    this.#metrics.requestFinished({
      method: request.method,
      scheme: request.scheme,
      route: attributes.get('_route') ?? null,
      routePath: attributes.get('_route_path') ?? null,
      status: response.status,
      durationSeconds: (event.endTime - started) / 1000,
      // No body (neither a length nor chunks announced): no header to read.
      requestBodyBytes: request.body === null ? null : declaredLength(request.headers.get('content-length')),
      responseBodyBytes: knownBodyLength(request, response),
      aborted: event.responseFinished === undefined ? leftEventStream(response) : !event.responseFinished,
    });
  }
}

/** Without word from the host (an in-process client): only an event stream knows that its client left. */
function leftEventStream(response: Response): boolean {
  return response instanceof EventStreamResponse && response.outcome?.ending === 'client-gone';
}
