import { Event } from '../dispatcher/event.js';
import type { Request, RequestStack } from '../http/request.js';
import type { HttpKernelInterface } from '../contract/http-kernel-interface.js';
import { RequestType } from '../contract/request-type.js';

/** Base of every kernel event: the kernel, the request being handled and whether it is the main one. */
export abstract class KernelEvent extends Event {
  declare readonly kernel: HttpKernelInterface;
  declare readonly request: Request;
  declare readonly requestType: RequestType;

  constructor(kernel: HttpKernelInterface, request: Request, requestType: RequestType) {
    super();
    this.kernel = kernel;
    this.request = request;
    this.requestType = requestType;
  }

  isMainRequest(): boolean {
    return this.requestType === RequestType.MAIN;
  }

  /** The stack of the request chain this event belongs to (main request at the bottom). */
  get requestStack(): RequestStack | null {
    return this.request.requestStack;
  }
}
