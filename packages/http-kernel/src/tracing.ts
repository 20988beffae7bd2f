/**
 * `@switchboard/http-kernel/tracing` — seeing where a request's time goes: the tracing channels the
 * kernel publishes on and the call scopes their subscribers bind (an APM, OpenTelemetry), the
 * dispatcher that records every dispatch (the profiler), and the `Server-Timing` listener (the
 * browser's developer tools). docs/observability.md describes the channels.
 * @module
 */
export {
  KERNEL_LISTENER_CHANNEL,
  KERNEL_REQUEST_CHANNEL,
  kernelListenerChannel,
  kernelRequestChannel,
  TRACING_CHANNELS_VERSION,
  type KernelRequestContext,
  type ListenerCallContext,
} from './tracing/tracing-channels.js';
export type { TracedCallContext } from './tracing/traced-call.js';
export type { TracedCallScope } from './tracing/call-scopes.js';
export { bindCallScope, unbindCallScope, type TracedCallContexts, type TracedChannelName } from './tracing/traced-call-scopes.js';
export {
  TraceableEventDispatcher,
  type DispatchTrace,
  type DispatchTracer,
  type ListenerCall,
  type ListenerInfo,
} from './dispatcher/traceable-event-dispatcher.js';
export { ServerTimingListener, type ServerTimingListenerOptions } from './listener/server-timing-listener.js';
