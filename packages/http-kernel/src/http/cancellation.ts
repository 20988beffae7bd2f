/**
 * Why a request's `signal` fired. Both are `DOMException`s named `AbortError`, as `fetch`, timers
 * and database drivers expect of an abort reason, and subclasses so that code can tell them apart.
 */

/** The client closed its connection (or reset its stream) before the response finished. */
export class ClientGoneError extends DOMException {
  constructor(message = 'The client went away before the response finished.') {
    super(message, 'AbortError');
  }
}

/**
 * The server is shutting down and stops waiting for this request: at once for an event stream,
 * at the end of the grace period for any other request still running.
 */
export class ServerShutdownError extends DOMException {
  constructor(message = 'The server is shutting down.') {
    super(message, 'AbortError');
  }
}

/**
 * Where a request's signal comes from: the signal itself, or an object that makes it on first
 * use (an adapter's, so a request whose code never asks costs no `AbortController`).
 */
export type RequestSignalSource = AbortSignal | { readonly signal: AbortSignal };

/**
 * Whether `error` is the request being abandoned rather than a fault: its signal fired and the error
 * is the signal's reason, or wraps it (`cause`), as Node's timers do. Logged below ERROR. Only an
 * abort-like error (a `DOMException`, or one caused by it) makes the request's signal be read, so
 * the error path of an ordinary request does not build one.
 */
export function isAbandonment(error: unknown, request: { readonly signal: AbortSignal }): boolean {
  const cause = error instanceof Error ? error.cause : undefined;
  if (!(error instanceof DOMException) && !(cause instanceof DOMException)) return false;
  const signal = request.signal;
  return signal.aborted && (error === signal.reason || cause === signal.reason);
}
