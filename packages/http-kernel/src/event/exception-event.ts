import { DeferredHttpError } from '../error/deferred-http-error.js';
import { errorHeadersOf, statusOf } from '../error/error-status.js';
import type { HeaderValue } from '../http/header-bag.js';
import type { Request } from '../http/request.js';
import type { HttpKernelInterface } from '../contract/http-kernel-interface.js';
import type { RequestType } from '../contract/request-type.js';
import { RequestEvent } from './request-event.js';

/**
 * `kernel.exception`: something threw. A listener may replace the error, or set a response
 * (which stops propagation). The kernel then forces the error's status onto a response that is
 * neither an error nor a redirect, unless `allowCustomResponseCode()` was called.
 *
 * The error may have come as a `DeferredHttpError` (a router's 404): `status` and `errorHeaders`
 * answer from it, and `throwable` makes the error on first read.
 */
export class ExceptionEvent extends RequestEvent {
  declare private error: unknown;
  declare private customResponseCode: boolean;

  constructor(kernel: HttpKernelInterface, request: Request, requestType: RequestType, throwable: unknown) {
    super(kernel, request, requestType);
    this.error = throwable;
    this.customResponseCode = false;
  }

  /** The error; one that came described (`DeferredHttpError`) is made on the first read. */
  get throwable(): unknown {
    const error = this.error;
    if (error instanceof DeferredHttpError) this.error = error.toError();
    return this.error;
  }

  /**
   * The error as it stands: still a `DeferredHttpError` when nobody has read `throwable`. For
   * handing it on (the error page's sub-request) without making it.
   */
  get pendingThrowable(): unknown {
    return this.error;
  }

  /** The status the error maps to (its own for an HTTP error, else 500), read without making a described error. */
  get status(): number {
    return statusOf(this.error);
  }

  /** The headers the error's response must carry (`Allow`, `WWW-Authenticate`…), read without making a described error. */
  get errorHeaders(): Readonly<Record<string, HeaderValue>> {
    return errorHeadersOf(this.error);
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
