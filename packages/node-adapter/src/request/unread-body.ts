import type { IncomingMessage } from 'node:http';

/** How much of a request body nobody reads is still taken in after its answer, at most. */
export interface UnreadBodyLimits {
  readonly maxBytes: number;
  /** From the answer to the end of the body. */
  readonly timeoutMs: number;
  /** Between two chunks (and after `maxBytes`): a client that stopped sending is not waited for. */
  readonly idleMs: number;
}

export const UNREAD_BODY_LIMITS: UnreadBodyLimits = { maxBytes: 1024 * 1024, timeoutMs: 5_000, idleMs: 1_000 };

/** Whether an HTTP/1 request announced a body whose end has not arrived yet. */
export function hasBodyInTransit(req: IncomingMessage): boolean {
  return !req.complete && (req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined);
}

/** Whether an HTTP/1 request declared a body longer than `discardUnreadBody` takes in. */
export function declaredOverDiscardLimit(req: IncomingMessage, limits: UnreadBodyLimits = UNREAD_BODY_LIMITS): boolean {
  return Number(req.headers['content-length']) > limits.maxBytes;
}

/**
 * Reads and discards the rest of an HTTP/1 request body that nobody reads (the request was
 * answered early: 401, 413, 400…), within `limits`. Closing a connection while the client still
 * sends makes the TCP stack answer with a reset, and most clients then lose an answer they had not
 * read yet; taking the rest in first lets them read it.
 *
 * Resolves `true` when the body ended (or the client went away) within the limits, `false` when a
 * limit was reached first: the caller then closes the connection, which the client has had at
 * least `idleMs` to read the answer from.
 */
export function discardUnreadBody(req: IncomingMessage, limits: UnreadBodyLimits = UNREAD_BODY_LIMITS): Promise<boolean> {
  if (req.readableEnded || req.destroyed) return Promise.resolve(true);
  return new Promise((resolve) => {
    let received = 0;
    const settle = (ended: boolean): void => {
      clearTimeout(timer);
      clearTimeout(idle);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onEnd);
      resolve(ended);
    };
    const onData = (chunk: Buffer): void => {
      received += chunk.byteLength;
      // Past the byte limit reading stops (the client's sending stalls) but the connection stays
      // open until the idle limit: a reset now would often destroy the answer before it is read.
      if (received > limits.maxBytes) req.pause();
      else idle.refresh();
    };
    const onEnd = (): void => settle(true);
    const timer = setTimeout(() => settle(false), limits.timeoutMs);
    const idle = setTimeout(() => settle(false), limits.idleMs);
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('close', onEnd);
  });
}
