/**
 * How the kernel, the dispatcher and the argument resolver run their steps: synchronously, until
 * a step returns a promise; the steps after it then run once it settles. A request whose
 * listeners and controller all answer at once therefore goes through without a promise, and one
 * that waits somewhere behaves as if every step had been awaited.
 */

/** A value, or a promise of it when a step on the way had to wait. */
export type MaybePromise<T> = T | Promise<T>;

/** Whether a step's result is to be waited for. */
export function isThenable<T = unknown>(value: unknown): value is PromiseLike<T> {
  return value !== undefined && value !== null && typeof (value as PromiseLike<T>).then === 'function';
}

/** `next(value)`: at once when `value` is there, once it resolves when it is a promise. */
export function andThen<T, R>(value: T | PromiseLike<T>, next: (value: T) => MaybePromise<R>): MaybePromise<R> {
  return isThenable<T>(value) ? Promise.resolve(value).then(next) : next(value);
}

/** `step()`, or `recover(error)` when it throws or its promise rejects. */
export function attempt<R>(step: () => MaybePromise<R>, recover: (error: unknown) => MaybePromise<R>): MaybePromise<R> {
  let result: MaybePromise<R>;
  try {
    result = step();
  } catch (error) {
    return recover(error);
  }
  return isThenable<R>(result) ? Promise.resolve(result).then(undefined, recover) : result;
}

/** `step()`, with `cleanup()` run once it has ended, however it ended. */
export function andFinally<R>(step: () => MaybePromise<R>, cleanup: () => void): MaybePromise<R> {
  let result: MaybePromise<R>;
  try {
    result = step();
  } catch (error) {
    cleanup();
    throw error;
  }
  if (!isThenable<R>(result)) {
    cleanup();
    return result;
  }
  return Promise.resolve(result).finally(cleanup);
}
