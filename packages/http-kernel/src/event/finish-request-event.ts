import type { Request } from '../http/request.js';
import type { HttpKernelInterface } from '../contract/http-kernel-interface.js';
import type { RequestType } from '../contract/request-type.js';
import { KernelEvent } from './kernel-event.js';

/** `kernel.finish_request`: the response is built; listeners reset state set for this request (locale, router context). */
export class FinishRequestEvent extends KernelEvent {
  // Written out rather than inherited: docs/decisions.md D6.
  constructor(kernel: HttpKernelInterface, request: Request, requestType: RequestType) {
    super(kernel, request, requestType);
  }
}
