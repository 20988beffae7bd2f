import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import type { HttpKernelInterface } from '../contract/http-kernel-interface.js';
import type { RequestType } from '../contract/request-type.js';
import { KernelEvent } from './kernel-event.js';

/** `kernel.request`: before routing. A listener that sets a response ends the request there. */
export class RequestEvent extends KernelEvent {
  declare private answer: Response | null;

  constructor(kernel: HttpKernelInterface, request: Request, requestType: RequestType) {
    super(kernel, request, requestType);
    this.answer = null;
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
}
