import type { Request } from '../http/request.js';
import type { HttpKernelInterface } from '../kernel/http-kernel-interface.js';
import type { RequestType } from '../kernel/request-type.js';
import { RequestEvent } from './request-event.js';

/**
 * `kernel.exception`: something threw. A listener may replace the error, or set a response
 * (which stops propagation). The kernel then forces the error's status onto a response that is
 * neither an error nor a redirect, unless `allowCustomResponseCode()` was called.
 */
export class ExceptionEvent extends RequestEvent {
  #throwable: unknown;
  #allowCustomResponseCode = false;

  constructor(kernel: HttpKernelInterface, request: Request, requestType: RequestType, throwable: unknown) {
    super(kernel, request, requestType);
    this.#throwable = throwable;
  }

  get throwable(): unknown {
    return this.#throwable;
  }

  setThrowable(throwable: unknown): void {
    this.#throwable = throwable;
  }

  allowCustomResponseCode(): void {
    this.#allowCustomResponseCode = true;
  }

  isAllowingCustomResponseCode(): boolean {
    return this.#allowCustomResponseCode;
  }
}
