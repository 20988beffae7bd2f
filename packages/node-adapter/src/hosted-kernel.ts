import type { Request, Response } from '@switchboard/http-kernel';

/**
 * What the adapter needs from a kernel: `HttpKernel` fits, and so does any object that turns a
 * request into a response. `handleEagerly` spares a promise per request; `terminate` runs after
 * the response was sent; `dispatcher` lets the adapter skip scheduling it when nobody listens to
 * `kernel.terminate`.
 */
export interface HostedKernel {
  handle(request: Request): Promise<Response>;
  /** Used instead of `handle` when present: the response itself when it was ready at once. */
  handleEagerly?(request: Request): Response | Promise<Response>;
  terminate?(request: Request, response: Response): Promise<void>;
  readonly dispatcher?: { hasListeners(eventName: 'kernel.terminate'): boolean };
}
