import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import type { HttpKernelInterface } from '../contract/http-kernel-interface.js';
import type { RequestType } from '../contract/request-type.js';
import { KernelEvent } from './kernel-event.js';

/** `kernel.response`: the response is about to be returned; listeners may change or replace it. */
export class ResponseEvent extends KernelEvent {
  declare response: Response;

  constructor(kernel: HttpKernelInterface, request: Request, requestType: RequestType, response: Response) {
    super(kernel, request, requestType);
    this.response = response;
  }

  /** Replaces the response; unlike the request event, this does not stop propagation. */
  setResponse(response: Response): void {
    this.response = response;
  }
}
