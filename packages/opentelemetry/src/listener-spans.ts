import { context, SpanKind, trace, type Context, type Span, type Tracer } from '@opentelemetry/api';
import type { ListenerCallContext } from '@switchboard/http-kernel/tracing';
import { errorType, failed } from './request-spans.js';

/**
 * An INTERNAL span per listener call, named after the listener, under the active span (the
 * request's, or the listener's whose dispatch this is). Active while the listener runs, so a
 * sub-request it makes (the error page's) nests under it.
 */
export class ListenerSpans {
  readonly #spans = new WeakMap<ListenerCallContext, Span>();

  constructor(private readonly tracer: Tracer) {}

  enter(call: ListenerCallContext): Context {
    const active = context.active();
    try {
      const span = this.tracer.startSpan(
        call.listenerName,
        {
          kind: SpanKind.INTERNAL,
          // Keys written out (the values of ATTR), not computed: docs/decisions.md, Observability.
          attributes: {
            'switchboard.event.name': call.eventName,
            'switchboard.listener.name': call.listenerName,
            'switchboard.listener.priority': call.priority,
          },
        },
        active,
      );
      this.#spans.set(call, span);
      return trace.setSpan(active, span);
    } catch {
      return active;
    }
  }

  finish(call: ListenerCallContext): void {
    const span = this.#spans.get(call);
    if (span === undefined) return;
    this.#spans.delete(call);
    if (call.error !== undefined) failed(span, call.error, errorType(call.error));
    span.end();
  }
}
