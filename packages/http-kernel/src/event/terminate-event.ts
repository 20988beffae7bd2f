import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import type { HttpKernelInterface } from '../contract/http-kernel-interface.js';
import { RequestType } from '../contract/request-type.js';
import { KernelEvent } from './kernel-event.js';

/** `kernel.terminate`: after the response was sent; slow work (saving profiles) goes here. */
export class TerminateEvent extends KernelEvent {
  declare readonly response: Response;

  constructor(kernel: HttpKernelInterface, request: Request, response: Response) {
    super(kernel, request, RequestType.MAIN);
    this.response = response;
  }
}
