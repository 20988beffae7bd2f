import type { Request } from '../http/request.js';
import type { HttpKernelInterface } from '../contract/http-kernel-interface.js';
import type { RequestType } from '../contract/request-type.js';
import { RequestEvent } from './request-event.js';

/** `kernel.view`: the controller returned something other than a Response; a listener turns it into one. */
export class ViewEvent extends RequestEvent {
  declare controllerResult: unknown;

  constructor(kernel: HttpKernelInterface, request: Request, requestType: RequestType, controllerResult: unknown) {
    super(kernel, request, requestType);
    this.controllerResult = controllerResult;
  }
}
