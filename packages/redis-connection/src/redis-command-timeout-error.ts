/**
 * A command not answered within the connection's deadline. `pending` is the command itself: it
 * settles once Redis answers after all, or the connection drops — a caller that must not send again
 * before then (a write that may still be applied) waits for it.
 */
export class RedisCommandTimeoutError extends Error {
  override readonly name = 'RedisCommandTimeoutError';

  constructor(
    readonly timeoutMs: number,
    readonly pending: Promise<unknown>,
  ) {
    super(`no answer within ${timeoutMs} ms`);
  }
}
