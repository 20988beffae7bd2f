import { logAt, type Logger, type ResponseBody } from '@switchboard/http-kernel';
import { describeError } from '@switchboard/http-kernel/internal';

/**
 * A streamed body that goes out unread (the answer to HEAD, a 204 or 304) is told so through its
 * iterator's `return()`, as a `for await` left early would tell it: a file body closes its handle.
 */
export function releaseUnsentBody(body: ResponseBody, logger: Logger): void {
  if (body === null || typeof body === 'string' || body instanceof Uint8Array) return;
  const iterator = body[Symbol.asyncIterator]();
  iterator.return?.().catch((error: unknown) => {
    logAt(logger, 'ERROR', { err: error }, `An unsent response body failed to close: ${describeError(error)}`);
  });
}
