import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import type { RequestType } from './request-type.js';

export interface HttpKernelInterface {
  /**
   * Turns a request into a response. With `catchErrors` (the default) every error becomes an
   * error response; without it, errors are rethrown after `kernel.finish_request`.
   */
  handle(request: Request, type?: RequestType, catchErrors?: boolean): Promise<Response>;
  /**
   * The same, returning the response itself when nothing in the request waited (see
   * `HttpKernel.handleEagerly`). Optional: callers fall back to `handle`.
   */
  handleEagerly?(request: Request, type?: RequestType, catchErrors?: boolean): Response | Promise<Response>;
}

/**
 * `kernel.handleEagerly(…)` where the kernel has it, else `kernel.handle(…)`: for callers that
 * host any kernel (adapters, the error listener's sub-request) and write the response the moment
 * it exists.
 */
export function handleEagerlyWith(
  kernel: Pick<HttpKernelInterface, 'handle' | 'handleEagerly'>,
  request: Request,
  type?: RequestType,
  catchErrors?: boolean,
): Response | Promise<Response> {
  return kernel.handleEagerly !== undefined ? kernel.handleEagerly(request, type, catchErrors) : kernel.handle(request, type, catchErrors);
}
