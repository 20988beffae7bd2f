import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EventDispatcher, HttpKernelInterface, KernelEventMap } from '@switchboard/http-kernel';
import type { NodeAdapterOptions } from '../adapter-options.js';
import { NodeAdapter } from '../node-adapter.js';
import { UnmatchedRequestListener } from './unmatched-request-listener.js';

export interface MiddlewareOptions extends NodeAdapterOptions {
  /**
   * Hand requests that match no route to the host's `next()` instead of answering 404, so the
   * host's own routes and 404 handling still apply. Needs a kernel with a `dispatcher` (HttpKernel).
   */
  fallThrough?: boolean;
}

/** Connect/Express middleware signature. */
export type ConnectMiddleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

// One listener per dispatcher, however many middlewares share the kernel.
const listening = new WeakSet<object>();

/**
 * The kernel as Express or Connect middleware: `app.use(createMiddleware(kernel))`. It answers
 * every request itself, or with `fallThrough` passes unmatched ones to `next()`.
 */
export function createMiddleware(kernel: HttpKernelInterface, options: MiddlewareOptions = {}): ConnectMiddleware {
  const { fallThrough = false, ...adapterOptions } = options;
  const adapter = new NodeAdapter(kernel, adapterOptions);
  if (!fallThrough) return (req, res) => adapter.handle(req, res);

  const dispatcher = kernel.dispatcher as EventDispatcher<KernelEventMap> | undefined;
  if (dispatcher === undefined || typeof dispatcher.addSubscriber !== 'function') {
    throw new TypeError('createMiddleware({ fallThrough: true }) needs a kernel with an event dispatcher (HttpKernel).');
  }
  if (!listening.has(dispatcher)) {
    dispatcher.addSubscriber(new UnmatchedRequestListener());
    listening.add(dispatcher);
  }
  return (req, res, next) => adapter.handle(req, res, () => next());
}
