import { channel } from 'node:diagnostics_channel';
import {
  ServiceUnavailableHttpError,
  withoutStackTrace,
  type EventSubscriber,
  type KernelEventMap,
  type RequestEvent,
  type SubscribedEvents,
  type OwnedDeclarations,
} from '@switchboard/http-kernel';
import type { PressureMonitor } from './pressure-monitor.js';

/**
 * A route's place in load shedding (its `_load_shedding` default): `exempt` routes always answer
 * (health, readiness, metrics); `expensive` ones are shed first, and alone when the listener sheds
 * `expensive` routes only.
 */
export type LoadShedding = 'exempt' | 'expensive';

declare module '@switchboard/http-kernel' {
  interface RequestAttributes {
    _load_shedding?: LoadShedding;
  }
}

export interface PressureListenerOptions {
  monitor: PressureMonitor;
  /**
   * Which routes are refused under pressure: `all` (default) every route not `exempt`;
   * `expensive` only routes marked `expensive`, so cheap ones keep answering.
   */
  shed?: 'all' | 'expensive';
}

/** Published once per request the listener sheds (`RequestShedMessage`), for metrics. */
export const REQUEST_SHED_CHANNEL = 'switchboard.operations.request-shed';

/** What `REQUEST_SHED_CHANNEL` carries. */
export interface RequestShedMessage {
  /** The route is marked `_load_shedding: 'expensive'`. */
  readonly expensive: boolean;
}

const shed = channel(REQUEST_SHED_CHANNEL);

/**
 * Sheds load while the process is under pressure (`PressureMonitor`): `kernel.request`
 * (`REQUEST_PRIORITY`, right after the router, which tells which route it is, and before the
 * firewall, the payload and the controller, where the work is) throws a 503
 * `ServiceUnavailableHttpError` with `Retry-After`, answered as problem+json by the error flow.
 * Main requests only; routes marked `exempt` and the profiler's (`_profiler…`) always pass.
 * Not under pressure, it reads one boolean.
 */
export class PressureListener implements EventSubscriber<KernelEventMap> {
  static readonly REQUEST_PRIORITY = 31;

  readonly #monitor: PressureMonitor;
  readonly #expensiveOnly: boolean;

  constructor(options: PressureListenerOptions) {
    this.#monitor = options.monitor;
    this.#expensiveOnly = options.shed === 'expensive';
  }

  /** The route declarations this listener acts on: a route with one needs it registered. */
  getOwnedDeclarations(): OwnedDeclarations {
    return { routeDefaults: ['_load_shedding'] };
  }

  getSubscribedEvents(): SubscribedEvents<KernelEventMap> {
    return { 'kernel.request': [this.onKernelRequest, PressureListener.REQUEST_PRIORITY, { mainRequestOnly: true }] };
  }

  onKernelRequest(event: RequestEvent): void {
    if (!this.#monitor.underPressure) return;
    const attributes = event.request.attributes;
    const shedding = attributes.get('_load_shedding');
    if (shedding === 'exempt' || attributes.get('_route')?.startsWith('_profiler')) return;
    if (this.#expensiveOnly && shedding !== 'expensive') return;
    if (shed.hasSubscribers) shed.publish({ expensive: shedding === 'expensive' } satisfies RequestShedMessage);
    // Shedding must stay cheaper than serving: no stack trace to capture.
    throw withoutStackTrace(
      () =>
        new ServiceUnavailableHttpError('The server is overloaded; please retry later.', {
          headers: { 'retry-after': String(this.#monitor.retryAfterSeconds()) },
          thrownBy: 'PressureListener.onKernelRequest',
          // Refusing is the plan, not a failure; the monitor reports the pressure itself once.
          logLevel: 'INFO',
        }),
    );
  }
}
