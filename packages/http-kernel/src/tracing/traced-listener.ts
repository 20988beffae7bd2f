import type { AnyListener } from '../dispatcher/types.js';
import { fromThenable } from '../internal/maybe-promise.js';
import { kernelListenerChannel, ListenerCallTrace } from './tracing-channels.js';
import { tracedCall } from './traced-call.js';

/** `call`, published on `switchboard.kernel.listener` as the listener `name` of `priority` each time it runs. */
export function tracedListener(name: string, priority: number, call: AnyListener): AnyListener {
  return (event, eventName) =>
    tracedCall(kernelListenerChannel, new ListenerCallTrace(eventName, name, priority, event as object), () =>
      fromThenable(call(event, eventName)),
    );
}
