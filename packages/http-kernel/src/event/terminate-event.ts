import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import type { HttpKernelInterface } from '../contract/http-kernel-interface.js';
import { RequestType } from '../contract/request-type.js';
import { KernelEvent } from './kernel-event.js';

/** `kernel.terminate`: after the response was sent; slow work (saving profiles) goes here. */
export class TerminateEvent extends KernelEvent {
  declare readonly response: Response;
  /**
   * Whether the whole response went out, as the host that wrote it saw its end: false when the
   * exchange closed first (the client went away, or the host cut a failing stream short);
   * undefined when the host did not say (an in-process test client).
   */
  declare readonly responseFinished: boolean | undefined;
  #endTime: number | undefined;

  constructor(kernel: HttpKernelInterface, request: Request, response: Response, responseFinished?: boolean) {
    super(kernel, request, RequestType.MAIN);
    this.response = response;
    this.responseFinished = responseFinished;
  }

  /**
   * `performance.now()` as `kernel.terminate` runs: the end of a request timed from
   * `request.startTime`. Read on first use and shared by every listener, so those that time the
   * request (metrics, the access log) cost one clock read between them.
   */
  get endTime(): number {
    return (this.#endTime ??= performance.now());
  }
}
