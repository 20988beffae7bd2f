import type { TracingChannelSubscribers } from 'node:diagnostics_channel';
import { trace, type TextMapPropagator, type TracerProvider } from '@opentelemetry/api';
import { kernelListenerChannel, kernelRequestChannel, type KernelRequestContext, type ListenerCallContext } from '@switchboard/http-kernel';
import { activeContextStore } from './context-store.js';
import { incomingContextPolicy, type IncomingContextOption } from './incoming-context.js';
import { ListenerSpans } from './listener-spans.js';
import { RequestSpans } from './request-spans.js';

export interface OpenTelemetryBridgeOptions {
  /** Where the tracer comes from; defaults to the global provider (the one the SDK registered). */
  tracerProvider?: TracerProvider;
  /** Reads `traceparent` (and the rest) from incoming requests; defaults to the global propagator. */
  propagator?: TextMapPropagator;
  /** A span per listener call, under its request's span. Off by default: a request calls 10–30 listeners. */
  listenerSpans?: boolean;
  /**
   * Whose incoming trace context (`traceparent`, `tracestate`) and `baggage` a main request's
   * span continues. `'trusted-proxies'` (default): only a request that came through a proxy the
   * adapter trusts (`request.fromTrustedProxy`, from its `trustedProxies`); `'all'`: every
   * request's; or a function of the request. Any other request starts a new trace with no baggage.
   */
  incomingContext?: IncomingContextOption;
}

/** The tracer's name: the instrumentation scope spans are reported under. */
export const INSTRUMENTATION_SCOPE = '@switchboard/opentelemetry';

/**
 * Spans for every kernel request (SERVER for main requests, INTERNAL for sub-requests) and,
 * optionally, every listener call, made from the kernel's tracing channels
 * (docs/observability.md). Process-wide, as the channels are: one bridge sees every kernel of the
 * process. `enable()` subscribes, `disable()` unsubscribes; until then it costs nothing.
 */
export class OpenTelemetryBridge {
  readonly #requests: RequestSpans;
  readonly #listeners: ListenerSpans | null;
  readonly #requestSubscriber: TracingChannelSubscribers<KernelRequestContext>;
  readonly #listenerSubscriber: TracingChannelSubscribers<ListenerCallContext>;
  readonly #requestStore = activeContextStore();
  readonly #listenerStore = activeContextStore();
  #enabled = false;

  constructor(options: OpenTelemetryBridgeOptions = {}) {
    const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(INSTRUMENTATION_SCOPE);
    this.#requests = new RequestSpans(tracer, options.propagator, incomingContextPolicy(options.incomingContext));
    this.#listeners = options.listenerSpans === true ? new ListenerSpans(tracer) : null;
    this.#requestSubscriber = endsOf((request) => this.#requests.finish(request));
    this.#listenerSubscriber = endsOf((call) => this.#listeners?.finish(call));
  }

  get enabled(): boolean {
    return this.#enabled;
  }

  enable(): this {
    if (this.#enabled) return this;
    this.#enabled = true;
    kernelRequestChannel.start.bindStore(this.#requestStore, (request) => this.#requests.enter(request));
    kernelRequestChannel.subscribe(this.#requestSubscriber);
    const listeners = this.#listeners;
    if (listeners !== null) {
      kernelListenerChannel.start.bindStore(this.#listenerStore, (call) => listeners.enter(call));
      kernelListenerChannel.subscribe(this.#listenerSubscriber);
    }
    return this;
  }

  /** Stops making spans; spans of requests still running end with them. */
  disable(): void {
    if (!this.#enabled) return;
    this.#enabled = false;
    kernelRequestChannel.start.unbindStore(this.#requestStore);
    kernelRequestChannel.unsubscribe(this.#requestSubscriber);
    if (this.#listeners !== null) {
      kernelListenerChannel.start.unbindStore(this.#listenerStore);
      kernelListenerChannel.unsubscribe(this.#listenerSubscriber);
    }
  }
}

/** A subscriber that calls `finish` when a traced call is over: at `end`, or at `asyncEnd` when it went on. */
function endsOf<C extends { readonly async: boolean }>(finish: (context: C) => void): TracingChannelSubscribers<C> {
  const nothing = (): void => {};
  return {
    start: nothing,
    end: (context) => {
      if (!context.async) finish(context);
    },
    asyncStart: nothing,
    asyncEnd: finish,
    error: nothing,
  };
}
