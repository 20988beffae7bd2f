import type { Controller } from '../controller/controller.js';
import type { Request } from '../http/request.js';
import type { HttpKernelInterface } from '../contract/http-kernel-interface.js';
import type { RequestType } from '../contract/request-type.js';
import { KernelEvent } from './kernel-event.js';

/**
 * `kernel.controller_arguments`: arguments are resolved; listeners may check them (authorization,
 * payload, cache attribute) and replace the controller or the arguments.
 */
export class ControllerArgumentsEvent extends KernelEvent {
  declare controller: Controller;
  declare arguments: unknown[];

  constructor(kernel: HttpKernelInterface, request: Request, requestType: RequestType, controller: Controller, args: unknown[]) {
    super(kernel, request, requestType);
    this.controller = controller;
    this.arguments = args;
  }

  setArguments(args: unknown[]): void {
    this.arguments = args;
  }

  setController(controller: Controller): void {
    this.controller = controller;
  }
}
