import type { Controller } from '../controller/controller.js';
import type { Request } from '../http/request.js';
import type { HttpKernelInterface } from '../contract/http-kernel-interface.js';
import type { RequestType } from '../contract/request-type.js';
import { KernelEvent } from './kernel-event.js';

/** `kernel.controller`: a controller was found; listeners may replace it. */
export class ControllerEvent extends KernelEvent {
  declare controller: Controller;

  constructor(kernel: HttpKernelInterface, request: Request, requestType: RequestType, controller: Controller) {
    super(kernel, request, requestType);
    this.controller = controller;
  }

  setController(controller: Controller): void {
    this.controller = controller;
  }
}
