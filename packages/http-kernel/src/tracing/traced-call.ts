import type { TracingChannel } from 'node:diagnostics_channel';
import { andThen, attempt, type MaybePromise } from '../internal/maybe-promise.js';
import { inCallScopes, type BoundCallScopes } from './call-scopes.js';

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
 * (`MaybePromise`): inside the channel's call scopes (`bindCallScope`), `start` (with the
 * channel's bound stores in force while `call` runs), `end`
 * when `call` returns, and, if it returned a promise, `asyncStart` and `asyncEnd` once that
 * settles; `error` before the end of a call that threw or rejected. Node's own `traceSync` and
 * `tracePromise` each need to know beforehand which kind of call it is.
 */
export function tracedCall<T, C extends TracedCallContext<T>>(
  channel: TracingChannel<unknown, C>,
  scopes: BoundCallScopes<C>,
  context: C,
  call: () => MaybePromise<T>,
): MaybePromise<T> {
  return attempt(
    () => {
      const returned = inCallScopes(scopes, context, () => channel.start.runStores(context, call));
      if (returned instanceof Promise) {
        context.async = true;
        channel.end.publish(context);
      }
      return andThen(returned, (value) => {
        context.result = value;
        publishEnd(channel, context);
        return value;
      });
    },
    (error) => {
      context.error = error;
      channel.error.publish(context);
      publishEnd(channel, context);
      throw error;
    },
  );
}

/** The end of a call: `end` when it was over at once; once its promise settled, `asyncStart` and `asyncEnd` (`end` was published when it returned the promise). */
function publishEnd<C extends TracedCallContext<unknown>>(channel: TracingChannel<unknown, C>, context: C): void {
  if (!context.async) {
    channel.end.publish(context);
    return;
  }
  channel.asyncStart.publish(context);
  channel.asyncEnd.publish(context);
}
