import { thrownIfFailed } from '../dispatcher/failed-event.js';
import type { AnyListener } from '../dispatcher/types.js';
import { andThen, fromThenable } from '../internal/maybe-promise.js';
import { kernelListenerChannel, ListenerCallTrace } from './tracing-channels.js';
import { tracedCall } from './traced-call.js';
import { boundCallScopes } from './traced-call-scopes.js';

const listenerScopes = boundCallScopes('switchboard.kernel.listener');

/**
 * `call`, published on `switchboard.kernel.listener` as the listener `name` of `priority` each time
 * it runs; a listener that fails its event (`RequestEvent.failWith`) is published as one that threw.
 */
export function tracedListener(name: string, priority: number, call: AnyListener): AnyListener {
  return (event, eventName) =>
    tracedCall(kernelListenerChannel, listenerScopes, new ListenerCallTrace(eventName, name, priority, event as object), () =>
      andThen(fromThenable(call(event, eventName)), (result) => thrownIfFailed(event, result)),
    );
}
