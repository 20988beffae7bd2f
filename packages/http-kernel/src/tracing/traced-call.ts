import type { TracingChannel } from 'node:diagnostics_channel';
import type { MaybePromise } from '../internal/maybe-promise.js';

/** What every traced call's context carries once the call is over (Node's tracing-channel convention). */
export interface TracedCallContext<T> {
  /**
   * Set just before `end` when the call returned a promise: it goes on, and `asyncStart` and
   * `asyncEnd` follow once it settles. False when the call was over at `end`.
   */
  async: boolean;
  /** What the call returned (resolved to), once known. */
  result?: T;
  /** What the call threw or rejected with, once known; `error` is published just before it ends. */
  error?: unknown;
}

/**
 * Runs `call` as one traced call on `channel`, for a step that may or may not return a promise
 * (`MaybePromise`): `start` (with the channel's bound stores in force while `call` runs), `end`
 * when `call` returns, and, if it returned a promise, `asyncStart` and `asyncEnd` once that
 * settles; `error` before the end of a call that threw or rejected. Node's own `traceSync` and
 * `tracePromise` each need to know beforehand which kind of call it is.
 */
export function tracedCall<T, C extends TracedCallContext<T>>(
  channel: TracingChannel<unknown, C>,
  context: C,
  call: () => MaybePromise<T>,
): MaybePromise<T> {
  let returned: MaybePromise<T>;
  try {
    returned = channel.start.runStores(context, call);
  } catch (error) {
    context.error = error;
    channel.error.publish(context);
    channel.end.publish(context);
    throw error;
  }
  if (!(returned instanceof Promise)) {
    context.result = returned;
    channel.end.publish(context);
    return returned;
  }
  context.async = true;
  channel.end.publish(context);
  return returned.then(
    (value) => {
      context.result = value;
      channel.asyncStart.publish(context);
      channel.asyncEnd.publish(context);
      return value;
    },
    (error: unknown) => {
      context.error = error;
      channel.error.publish(context);
      channel.asyncStart.publish(context);
      channel.asyncEnd.publish(context);
      throw error;
    },
  );
}
