import type { TracingChannelSubscribers } from 'node:diagnostics_channel';
import { context, trace, type Context, type TextMapPropagator, type TracerProvider } from '@opentelemetry/api';
import {
  bindCallScope,
  KERNEL_LISTENER_CHANNEL,
  KERNEL_REQUEST_CHANNEL,
  kernelListenerChannel,
  kernelRequestChannel,
  unbindCallScope,
  type KernelRequestContext,
  type ListenerCallContext,
  type TracedCallScope,
} from '@switchboard/http-kernel/tracing';
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
  readonly #requestScope: TracedCallScope<KernelRequestContext>;
  readonly #listenerScope: TracedCallScope<ListenerCallContext>;
  #enabled = false;

  constructor(options: OpenTelemetryBridgeOptions = {}) {
    const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(INSTRUMENTATION_SCOPE);
    this.#requests = new RequestSpans(tracer, options.propagator, incomingContextPolicy(options.incomingContext));
    this.#listeners = options.listenerSpans === true ? new ListenerSpans(tracer) : null;
    this.#requestSubscriber = endsOf((request) => this.#requests.finish(request));
    this.#listenerSubscriber = endsOf((call) => this.#listeners?.finish(call));
    this.#requestScope = activeDuring((request) => this.#requests.enter(request));
    this.#listenerScope = activeDuring((call) => this.#listeners?.enter(call) ?? context.active());
  }

  get enabled(): boolean {
    return this.#enabled;
  }

  enable(): this {
    if (this.#enabled) return this;
    this.#enabled = true;
    bindCallScope(KERNEL_REQUEST_CHANNEL, this.#requestScope);
    kernelRequestChannel.subscribe(this.#requestSubscriber);
    if (this.#listeners !== null) {
      bindCallScope(KERNEL_LISTENER_CHANNEL, this.#listenerScope);
      kernelListenerChannel.subscribe(this.#listenerSubscriber);
    }
    return this;
  }

  /** Stops making spans; spans of requests still running end with them. */
  disable(): void {
    if (!this.#enabled) return;
    this.#enabled = false;
    unbindCallScope(KERNEL_REQUEST_CHANNEL, this.#requestScope);
    kernelRequestChannel.unsubscribe(this.#requestSubscriber);
    if (this.#listeners !== null) {
      unbindCallScope(KERNEL_LISTENER_CHANNEL, this.#listenerScope);
      kernelListenerChannel.unsubscribe(this.#listenerSubscriber);
    }
  }
}

/**
 * A call scope that runs each traced call with the context `enter` makes for it (its span set) as
 * the active OpenTelemetry context, through whichever context manager the application's SDK
 * registered, for the whole call and whatever it awaits.
 */
function activeDuring<C>(enter: (traced: C) => Context): TracedCallScope<C> {
  return (traced, call) => context.with(enter(traced), call);
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
