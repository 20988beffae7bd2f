/**
 * How the kernel, the dispatcher and the argument resolver run their steps: synchronously, until
 * a step returns a promise; the steps after it then run once it settles. A request whose
 * listeners and controller all answer at once therefore goes through without a promise, and one
 * that waits somewhere behaves as if every step had been awaited (docs/decisions.md D1).
 *
 * Steps hand each other native promises: what user code returns (a listener's or a controller's
 * result, a value resolver's answer) goes through `fromThenable` first, so that telling a value
 * from a promise is an `instanceof` check, whatever the value.
 */

/** A value, or a promise of it when a step on the way had to wait. */
export type MaybePromise<T> = T | Promise<T>;

/** Whether a value returned by user code is to be waited for. */
export function isThenable<T = unknown>(value: unknown): value is PromiseLike<T> {
  return value !== undefined && value !== null && typeof (value as PromiseLike<T>).then === 'function';
}

/** `value`, or a native promise of it when it is any other thenable. */
export function fromThenable<T>(value: T | PromiseLike<T>): MaybePromise<T> {
  return isThenable<T>(value) && !(value instanceof Promise) ? Promise.resolve(value) : (value as MaybePromise<T>);
}

/** `next(value)`: at once when `value` is there, once it resolves when it is a promise. */
export function andThen<T, R>(value: MaybePromise<T>, next: (value: T) => MaybePromise<R>): MaybePromise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/** `step()`, or `recover(error)` when it throws or its promise rejects. */
export function attempt<R>(step: () => MaybePromise<R>, recover: (error: unknown) => MaybePromise<R>): MaybePromise<R> {
  let result: MaybePromise<R>;
  try {
    result = step();
  } catch (error) {
    return recover(error);
  }
  return result instanceof Promise ? result.then(undefined, recover) : result;
}
