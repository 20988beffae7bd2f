// The peer for @switchboard/metrics: the same instruments (request duration, request and response
// body sizes, requests in flight) with the same labels, recorded with prom-client's API at the same
// kernel events, as a prom-client user would write the listener.
import type { EventSubscriber, KernelEventMap, RequestEvent, SubscribedEvents, TerminateEvent } from '@switchboard/http-kernel';
import { Gauge, Histogram, Registry } from 'prom-client';

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
const SIZE_BUCKETS = [0, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000];
const LABELS = ['method', 'route', 'status', 'scheme'] as const;

declare module '@switchboard/http-kernel' {
  interface RequestAttributes {
    /** When the bench's prom-client listener saw the request start. */
    _prom_client_started?: number;
  }
}

export class PromClientMetricsListener implements EventSubscriber<KernelEventMap> {
  readonly registry = new Registry();
  readonly #duration = new Histogram({
    name: 'http_server_request_duration_seconds',
    help: 'd',
    labelNames: LABELS,
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  });
  readonly #requestSize = new Histogram({
    name: 'http_server_request_body_size_bytes',
    help: 'q',
    labelNames: LABELS,
    buckets: SIZE_BUCKETS,
    registers: [this.registry],
  });
  readonly #responseSize = new Histogram({
    name: 'http_server_response_body_size_bytes',
    help: 'r',
    labelNames: LABELS,
    buckets: SIZE_BUCKETS,
    registers: [this.registry],
  });
  readonly #active = new Gauge({
    name: 'http_server_active_requests',
    help: 'a',
    labelNames: ['method', 'scheme'],
    registers: [this.registry],
  });

  getSubscribedEvents(): SubscribedEvents<KernelEventMap> {
    return {
      'kernel.request': [this.onKernelRequest, 16384, { mainRequestOnly: true }],
      'kernel.terminate': [this.onKernelTerminate, 0],
    };
  }

  onKernelRequest(event: RequestEvent): void {
    event.request.attributes.set('_prom_client_started', performance.now());
    this.#active.inc({ method: event.request.method, scheme: event.request.scheme });
  }

  onKernelTerminate(event: TerminateEvent): void {
    const { request, response } = event;
    const start = request.attributes.get('_prom_client_started');
    if (start === undefined) return;
    this.#active.dec({ method: request.method, scheme: request.scheme });
    const labels = {
      method: request.method,
      route: request.attributes.get('_route') ?? '(none)',
      status: response.status,
      scheme: request.scheme,
    };
    this.#duration.observe(labels, (performance.now() - start) / 1000);
    const declared = request.headers.get('content-length');
    if (declared !== undefined) this.#requestSize.observe(labels, Number(declared));
    const body = response.body;
    if (typeof body === 'string') this.#responseSize.observe(labels, Buffer.byteLength(body));
  }
}
