import { errorOf } from '../error/deferred-http-error.js';
import type { DispatchableEvent } from './types.js';

/**
 * `result`, unless the listener that returned it ended `event` with an error
 * (`DispatchableEvent.failure`): then that error is thrown (made, if it was a `DeferredHttpError`). Tracing wrappers call it, so that a
 * traced listener that failed its event is reported as one that threw.
 */
export function thrownIfFailed<T>(event: unknown, result: T): T {
  const failure = (event as DispatchableEvent).failure;
  if (failure !== undefined && failure !== null) throw errorOf(failure.error);
  return result;
}
