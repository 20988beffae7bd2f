export function isThenable<T = unknown>(value: unknown): value is PromiseLike<T> {
  return value !== undefined && value !== null && typeof (value as PromiseLike<T>).then === 'function';
}
