import type { AsyncLocalStorage } from 'node:async_hooks';
import { context, type Context } from '@opentelemetry/api';

/**
 * What `TracingChannel#bindStore` calls a store: the channel runs the traced call with
 * `store.run(value, call)`, the value made by the transform given to `bindStore`. This one runs
 * it with `context.with(value, call)`, so the active OpenTelemetry context is the request's (or
 * the listener's) span for the whole call and whatever it awaits, through whichever context
 * manager the user's SDK registered. `run` is the only member the channel calls. One per
 * binding, since a channel keeps one transform per store.
 */
export function activeContextStore(): AsyncLocalStorage<Context> {
  const store = {
    run<R>(value: Context, call: () => R): R {
      return context.with(value, call);
    },
  };
  return store as unknown as AsyncLocalStorage<Context>;
}
