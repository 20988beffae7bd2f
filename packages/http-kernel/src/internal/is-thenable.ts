/**
 * Whether a step's result is to be waited for. The kernel's steps, dispatches and `handleEagerly`
 * return a value or a promise of it; callers branch on this rather than awaiting everything.
 */
export function isThenable<T = unknown>(value: unknown): value is PromiseLike<T> {
  return value !== undefined && value !== null && typeof (value as PromiseLike<T>).then === 'function';
}
