import type { EventSubscriber, SubscribedEvents } from '../dispatcher/types.js';
import type { KernelEventMap } from '../event/kernel-events.js';
import type { KernelEvent } from '../event/kernel-event.js';
import type { ResponseEvent } from '../event/response-event.js';
import type { Request } from '../http/request.js';

export interface ServerTimingListenerOptions {
  /**
   * A response header whose value becomes the description of the `total` entry, e.g. the
   * profiler's `x-debug-token`, so the browser's timing panel names the profile to open.
   */
  tokenHeader?: string;
}

/** When each phase of one main request started and ended (`performance.now()`). */
class PhaseMarks {
  requestListenersEnded?: number;
  controllerStarted?: number;
  controllerEnded?: number;
  exceptionStarted?: number;
  responseStarted?: number;

  constructor(readonly started: number) {}
}

/**
 * Adds `Server-Timing` to each main request's response: how long the `kernel.request` listeners,
 * the controller (with `kernel.view`), the error branch (`kernel.exception`, the error page's
 * sub-request) and the `kernel.response` listeners took, and the total, so a browser's developer
 * tools show where a request's time went. Each phase is measured between listeners of this
 * class placed first and last on the events around it; a phase that did not happen is left out.
 *
 * Timings tell an observer how the server works (how long a password check or a lookup took),
 * so hosts register it in debug mode, and in production only when configured to.
 */
export class ServerTimingListener implements EventSubscriber<KernelEventMap> {
  /** Before every other listener of the event: the phase starts here. */
  static readonly FIRST_PRIORITY = 4096;
  /** After every other listener of the event: the phase ends here, and the header holds every response listener's time. */
  static readonly LAST_PRIORITY = -4096;

  readonly #marks = new WeakMap<Request, PhaseMarks>();
  readonly #tokenHeader: string | undefined;

  constructor(options: ServerTimingListenerOptions = {}) {
    this.#tokenHeader = options.tokenHeader?.toLowerCase();
  }

  getSubscribedEvents(): SubscribedEvents<KernelEventMap> {
    const first = ServerTimingListener.FIRST_PRIORITY;
    const last = ServerTimingListener.LAST_PRIORITY;
    // Only the main request's phases are timed.
    const main = { mainRequestOnly: true };
    return {
      'kernel.request': [
        [this.onRequestStart, first, main],
        [this.onRequestEnd, last, main],
      ],
      'kernel.controller_arguments': [this.onControllerStart, last, main],
      'kernel.view': [this.onControllerEnd, first, main],
      'kernel.exception': [this.onExceptionStart, first, main],
      'kernel.response': [
        [this.onResponseStart, first, main],
        [this.onResponseEnd, last, main],
      ],
    };
  }

  onRequestStart(event: KernelEvent): void {
    // Shared with whatever else times the request (metrics, the access log): one clock read.
    this.#marks.set(event.request, new PhaseMarks(event.request.startTiming()));
  }

  onRequestEnd(event: KernelEvent): void {
    const marks = this.#mainMarks(event);
    if (marks !== undefined) marks.requestListenersEnded = performance.now();
  }

  onControllerStart(event: KernelEvent): void {
    const marks = this.#mainMarks(event);
    if (marks !== undefined) marks.controllerStarted = performance.now();
  }

  onControllerEnd(event: KernelEvent): void {
    const marks = this.#mainMarks(event);
    if (marks !== undefined && marks.controllerStarted !== undefined) marks.controllerEnded ??= performance.now();
  }

  onExceptionStart(event: KernelEvent): void {
    const marks = this.#mainMarks(event);
    if (marks === undefined) return;
    const now = performance.now();
    marks.exceptionStarted ??= now;
    if (marks.controllerStarted !== undefined) marks.controllerEnded ??= now;
  }

  onResponseStart(event: KernelEvent): void {
    const marks = this.#mainMarks(event);
    if (marks === undefined) return;
    const now = performance.now();
    marks.responseStarted = now;
    if (marks.controllerStarted !== undefined) marks.controllerEnded ??= now;
  }

  onResponseEnd(event: ResponseEvent): void {
    const marks = this.#mainMarks(event);
    if (marks === undefined) return;
    this.#marks.delete(event.request);
    const token = this.#tokenHeader === undefined ? undefined : event.response.headers.get(this.#tokenHeader);
    event.response.headers.append('server-timing', serverTiming(marks, performance.now(), token));
  }

  #mainMarks(event: KernelEvent): PhaseMarks | undefined {
    return this.#marks.get(event.request);
  }
}

/** The header value: `request;dur=0.8;desc="…", controller;dur=2.1, …, total;dur=3.4;desc="<token>"`. */
function serverTiming(marks: PhaseMarks, now: number, token: string | undefined): string {
  const entries: string[] = [];
  const add = (name: string, from: number | undefined, to: number | undefined, description: string): void => {
    if (from !== undefined && to !== undefined) entries.push(`${name};dur=${(to - from).toFixed(1)};desc="${description}"`);
  };
  const requestEnded = marks.requestListenersEnded ?? marks.controllerStarted ?? marks.exceptionStarted ?? marks.responseStarted;
  add('request', marks.started, requestEnded, 'kernel.request listeners');
  add('controller', marks.controllerStarted, marks.controllerEnded, 'controller');
  add('error', marks.exceptionStarted, marks.responseStarted, 'error handling and error page');
  add('response', marks.responseStarted, now, 'kernel.response listeners');
  add('total', marks.started, now, token === undefined || !/^[\w.-]+$/.test(token) ? 'total' : `profile ${token}`);
  return entries.join(', ');
}
