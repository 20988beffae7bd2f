import {
  context,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
  type TextMapGetter,
  type TextMapPropagator,
  type Tracer,
} from '@opentelemetry/api';
import type { HeaderBag, Request } from '@switchboard/http-kernel';
import { EventStreamResponse } from '@switchboard/http-kernel/sse';
import type { KernelRequestContext } from '@switchboard/http-kernel/tracing';
import { controllerName } from '@switchboard/http-kernel/internal';
import { ATTR, serverRequestAttributes, spanMethod } from './http-attributes.js';

/** Reads the request's headers for a propagator (`traceparent`, `tracestate`, `baggage`). */
const headerGetter: TextMapGetter<HeaderBag> = {
  keys: (headers) => headers.names(),
  get: (headers, key) => headers.get(key),
};

/**
 * A span per kernel request: SERVER for a main request (parented on the incoming `traceparent`
 * when there is one and `continuesIncoming` accepts the request), INTERNAL for a sub-request (under whatever span is active: the main
 * request's, or the listener's that made the sub-request). Started by the bridge's call scope on
 * the request channel, which runs the request with the span active; ended at `end`, or at
 * `asyncEnd` when the request went on past `end`.
 */
export class RequestSpans {
  readonly #spans = new WeakMap<KernelRequestContext, Span>();

  constructor(
    private readonly tracer: Tracer,
    private readonly propagator: TextMapPropagator | undefined,
    private readonly continuesIncoming: (request: Request) => boolean,
  ) {}

  /** The context the request runs in: its span set on its parent's. Never throws (the kernel would take it for the request's own error). */
  enter(request: KernelRequestContext): Context {
    const active = context.active();
    try {
      const span = request.type === 'main' ? this.#serverSpan(request, active) : this.#subRequestSpan(request, active);
      this.#spans.set(request, span.span);
      return trace.setSpan(span.parent, span.span);
    } catch {
      return active;
    }
  }

  /** The request is over: its response's status, route, request id and outcome go on its span, which ends. */
  finish(request: KernelRequestContext): void {
    const span = this.#spans.get(request);
    if (span === undefined) return;
    this.#spans.delete(request);
    const status = request.result?.status;
    if (status !== undefined) span.setAttribute(ATTR.httpResponseStatusCode, status);
    if (request.type === 'main') {
      this.#route(span, request);
      const requestId = request.request.attributes.get('_request_id');
      if (requestId !== undefined) span.setAttribute(ATTR.requestId, requestId);
    }
    if (request.error !== undefined) {
      failed(span, request.error, errorType(request.error));
    } else if (status !== undefined && status >= 500 && request.type === 'main') {
      // A 5xx is an error of the server span; a 4xx is the client's, and leaves it unset.
      failed(span, request.exception, request.exception === undefined ? String(status) : errorType(request.exception));
    }
    const result = request.result;
    if (result instanceof EventStreamResponse) endWithStream(span, result);
    else span.end();
  }

  #serverSpan(request: KernelRequestContext, active: Context): { span: Span; parent: Context } {
    const parent = this.continuesIncoming(request.request)
      ? (this.propagator ?? propagation).extract(active, request.request.headers, headerGetter)
      : active;
    const method = request.request.method;
    const span = this.tracer.startSpan(
      spanMethod(method),
      { kind: SpanKind.SERVER, attributes: serverRequestAttributes(request.request) },
      parent,
    );
    return { span, parent };
  }

  #subRequestSpan(request: KernelRequestContext, active: Context): { span: Span; parent: Context } {
    const controller = request.request.attributes.get('_controller');
    const name = controller === undefined ? 'sub-request' : `sub-request ${controllerName(controller)}`;
    const attributes: Record<string, string> = { 'switchboard.request.type': 'sub', 'http.request.method': request.request.method };
    if (controller !== undefined) attributes[ATTR.controller] = controllerName(controller);
    return { span: this.tracer.startSpan(name, { kind: SpanKind.INTERNAL, attributes }, active), parent: active };
  }

  /** `http.route` and the span name `METHOD route`, once a route matched. */
  #route(span: Span, request: KernelRequestContext): void {
    const path = request.routePath;
    if (path === null) return;
    span.setAttribute(ATTR.httpRoute, path);
    const name = request.route;
    if (name !== null) span.setAttribute(ATTR.routeName, name);
    span.updateName(`${spanMethod(request.request.method)} ${path}`);
  }
}

/** An event stream's span lasts as long as the stream, and says how many events it sent and how it ended. */
function endWithStream(span: Span, response: EventStreamResponse): void {
  void response.finished.then((outcome) => {
    span.setAttribute(ATTR.eventStreamEventsSent, outcome.eventsSent);
    span.setAttribute(ATTR.eventStreamEnding, outcome.ending);
    if (outcome.ending === 'error') span.setStatus({ code: SpanStatusCode.ERROR, message: 'The event source failed.' });
    span.end();
  });
}

/** Error status, `error.type`, and the exception as a span event when there is one. */
export function failed(span: Span, error: unknown, type: string): void {
  if (error instanceof Error) span.recordException(error);
  else if (error !== undefined) span.recordException(String(error));
  span.setAttribute(ATTR.errorType, type);
  span.setStatus({ code: SpanStatusCode.ERROR, ...(error instanceof Error ? { message: error.message } : {}) });
}

/** `error.type` for an error: its class name. */
export function errorType(error: unknown): string {
  return error instanceof Error ? error.constructor.name || error.name : '_OTHER';
}
