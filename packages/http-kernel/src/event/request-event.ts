import type { ListenerFailure } from '../dispatcher/types.js';
import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import type { HttpKernelInterface } from '../contract/http-kernel-interface.js';
import type { RequestType } from '../contract/request-type.js';
import { KernelEvent } from './kernel-event.js';

/**
 * `kernel.request`: before routing. A listener that sets a response ends the request there; one
 * that fails it (`failWith`) sends it to `kernel.exception`.
 */
export class RequestEvent extends KernelEvent {
  declare private answer: Response | null;
  declare private failedWith: ListenerFailure | null;

  constructor(kernel: HttpKernelInterface, request: Request, requestType: RequestType) {
    super(kernel, request, requestType);
    this.answer = null;
    this.failedWith = null;
  }

  get response(): Response | null {
    return this.answer;
  }

  /** Answers the request with `response`; later listeners and the controller are skipped. */
  setResponse(response: Response): void {
    this.answer = response;
    this.stopPropagation();
  }

  hasResponse(): boolean {
    return this.answer !== null;
  }

  /** The error a listener ended the request with (`failWith`), if one did. */
  get failure(): ListenerFailure | null {
    return this.failedWith;
  }

  /**
   * Ends the request with `error`, as throwing it from this listener would: later listeners and
   * the controller are skipped, and the kernel takes `error` to `kernel.exception`. For refusals
   * that are frequent and expected (a router's 404), which then cost no throw; a
   * `DeferredHttpError` costs no `Error` either until someone reads it.
   */
  failWith(error: unknown): void {
    this.failedWith = { error };
    this.stopPropagation();
  }
}
