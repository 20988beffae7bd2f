import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import type { RequestType } from './request-type.js';

/**
 * A kernel, as whatever hosts one sees it (the node adapter, the fetch handler, the error
 * listener's sub-request): `HttpKernel` fits, and so does any object that turns a request into a
 * response. Only `handle` is required; a host uses each optional member when it is there.
 */
export interface HttpKernelInterface {
  /**
   * Turns a request into a response. With `catchErrors` (the default) every error becomes an
   * error response; without it, errors are rethrown after `kernel.finish_request`. The response
   * comes back prepared for the request (`response.prepare(request)`: its cookies written).
   */
  handle(request: Request, type?: RequestType, catchErrors?: boolean): Promise<Response>;
  /**
   * The same, returning the response itself when nothing in the request waited (see
   * `HttpKernel.handleEagerly`). Hosts call it in place of `handle` when it is there.
   */
  handleEagerly?(request: Request, type?: RequestType, catchErrors?: boolean): Response | Promise<Response>;
  /**
   * Runs `kernel.terminate` once the response was sent. `responseFinished`: whether it went out
   * in full, when the host knows (false: the exchange closed first).
   */
  terminate?(request: Request, response: Response, responseFinished?: boolean): Promise<void>;
  /**
   * The same, returning nothing when no listener had to wait (see `HttpKernel.terminateEagerly`).
   * Hosts call it in place of `terminate` when it is there.
   */
  terminateEagerly?(request: Request, response: Response, responseFinished?: boolean): void | Promise<void>;
  /**
   * Throws when a route declares what no registered listener acts on (see
   * `HttpKernel.checkDeclarations`). Hosts call it before serving.
   */
  checkDeclarations?(): void;
  /** Lets a host skip scheduling `terminate` when nothing listens to `kernel.terminate`. */
  readonly dispatcher?: { hasListeners(eventName: 'kernel.terminate'): boolean };
}

/**
 * `kernel.handleEagerly(…)` where the kernel has it, else `kernel.handle(…)`: how a host hands a
 * request to any `HttpKernelInterface` and writes the response the moment it exists.
 */
export function handleEagerlyWith(
  kernel: HttpKernelInterface,
  request: Request,
  type?: RequestType,
  catchErrors?: boolean,
): Response | Promise<Response> {
  return kernel.handleEagerly !== undefined ? kernel.handleEagerly(request, type, catchErrors) : kernel.handle(request, type, catchErrors);
}
