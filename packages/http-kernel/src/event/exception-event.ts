import type { Request } from '../http/request.js';
import type { HttpKernelInterface } from '../contract/http-kernel-interface.js';
import type { RequestType } from '../contract/request-type.js';
import { RequestEvent } from './request-event.js';

/**
 * `kernel.exception`: something threw. A listener may replace the error, or set a response
 * (which stops propagation). The kernel then forces the error's status onto a response that is
 * neither an error nor a redirect, unless `allowCustomResponseCode()` was called.
 */
export class ExceptionEvent extends RequestEvent {
  declare private error: unknown;
  declare private customResponseCode: boolean;

  constructor(kernel: HttpKernelInterface, request: Request, requestType: RequestType, throwable: unknown) {
    super(kernel, request, requestType);
    this.error = throwable;
    this.customResponseCode = false;
  }

  get throwable(): unknown {
    return this.error;
  }

  setThrowable(throwable: unknown): void {
    this.error = throwable;
  }

  allowCustomResponseCode(): void {
    this.customResponseCode = true;
  }

  isAllowingCustomResponseCode(): boolean {
    return this.customResponseCode;
  }
}
