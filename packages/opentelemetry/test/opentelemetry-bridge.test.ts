/**
 * The bridge through a real node:http server, with the OpenTelemetry SDK's in-memory exporter and
 * its AsyncLocalStorage context manager, as an application would set them up.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  AccessDeniedHttpError,
  defineController,
  EventDispatcher,
  HttpKernel,
  JsonResponse,
  MemoryLogger,
  type KernelEventMap,
  type Request,
} from '@switchboard/http-kernel';
import { EventStreamResponse } from '@switchboard/http-kernel/sse';
import { ErrorListener } from '@switchboard/error-controller';
import { serveKernel, type ServedKernel } from '../../../test/kit/index.js';
import { RouteCollection, Router, RouterListener } from '@switchboard/router';
import { INSTRUMENTATION_SCOPE, OpenTelemetryBridge, type IncomingContextOption } from '../src/index.js';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const contextManager = new AsyncLocalStorageContextManager();
const appTracer = provider.getTracer('app');

function appKernel(): HttpKernel {
  const routes = new RouteCollection()
    .add('item', '/items/:id', {
      methods: ['GET'],
      controller: defineController(['id'], (id: string) =>
        // A span the application makes: it must nest under the request's span.
        appTracer.startActiveSpan('load item', (span) => {
          span.end();
          return new JsonResponse({ id });
        }),
      ),
    })
    .add('baggage', '/baggage', {
      methods: ['GET'],
      controller: defineController([], () => {
        const entries = propagation.getActiveBaggage()?.getAllEntries() ?? [];
        return new JsonResponse(Object.fromEntries(entries.map(([key, entry]) => [key, entry.value])));
      }),
    })
    .add('slow', '/slow/:id', {
      methods: ['GET'],
      controller: defineController(['id'], async (id: string) => {
        await nextTurn();
        appTracer.startSpan('after await').end();
        return new JsonResponse({ id });
      }),
    })
    .add('events', '/events', {
      methods: ['GET'],
      controller: defineController(
        ['request'],
        (request: Request) =>
          new EventStreamResponse(request, async function* () {
            yield { data: 'one' };
            await nextTurn();
            yield { data: 'two' };
          }),
      ),
    })
    .add('boom', '/boom', {
      methods: ['GET'],
      controller: defineController([], () => {
        throw new TypeError('The controller broke.');
      }),
    })
    .add('identified', '/identified', {
      methods: ['GET'],
      // What RequestIdListener (@switchboard/operations) sets on every request.
      controller: defineController(['request'], (request: Request) => {
        request.attributes.set('_request_id', 'id-for-the-trace');
        return new JsonResponse({ ok: true });
      }),
    })
    .add('denied', '/denied', {
      methods: ['GET'],
      controller: defineController([], () => {
        throw new AccessDeniedHttpError('No entry.');
      }),
    });
  const dispatcher = new EventDispatcher<KernelEventMap>();
  dispatcher.addSubscriber(new RouterListener(new Router(routes)));
  dispatcher.addSubscriber(new ErrorListener({ debug: false, logger: new MemoryLogger() }));
  return new HttpKernel({ dispatcher, logger: new MemoryLogger() });
}

let served: ServedKernel;
let bridge: OpenTelemetryBridge | undefined;

beforeAll(async () => {
  context.setGlobalContextManager(contextManager.enable());
  // As behind a proxy on this machine: its trace context is continued by default.
  served = await serveKernel(appKernel(), { trustedProxies: ['loopback'] });
});

afterAll(async () => {
  await served?.close();
  context.disable();
  await provider.shutdown();
});

afterEach(() => {
  bridge?.disable();
  bridge = undefined;
  exporter.reset();
});

function enableBridge(listenerSpans = false): OpenTelemetryBridge {
  bridge = new OpenTelemetryBridge({ tracerProvider: provider, propagator: new W3CTraceContextPropagator(), listenerSpans });
  return bridge.enable();
}

/** GET `path`, its body read, then the spans finished by then (the server span ends before the response is written). */
async function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; spans: ReadableSpan[] }> {
  const response = await fetch(`${served.origin}${path}`, { headers: { accept: 'application/json', ...headers } });
  await response.arrayBuffer();
  return { status: response.status, spans: exporter.getFinishedSpans() };
}

const byName = (spans: ReadableSpan[], name: string): ReadableSpan => {
  const found = spans.filter((span) => span.name === name);
  expect(found, `one span named ${name} among ${spans.map((span) => span.name).join(', ')}`).toHaveLength(1);
  return found[0]!;
};
const serverSpan = (spans: ReadableSpan[]): ReadableSpan => {
  const found = spans.filter((span) => span.kind === SpanKind.SERVER);
  expect(found).toHaveLength(1);
  return found[0]!;
};
const isChildOf = (child: ReadableSpan, parent: ReadableSpan): boolean =>
  child.spanContext().traceId === parent.spanContext().traceId && child.parentSpanContext?.spanId === parent.spanContext().spanId;

describe('the server span of a main request', () => {
  it('follows the HTTP semantic conventions, named after the matched route', async () => {
    enableBridge();
    const { status, spans } = await get('/items/7', { 'user-agent': 'bridge-test' });
    expect(status).toBe(200);
    const server = serverSpan(spans);
    expect(server.name).toBe('GET /items/:id');
    expect(server.instrumentationScope.name).toBe(INSTRUMENTATION_SCOPE);
    expect(server.attributes).toMatchObject({
      'http.request.method': 'GET',
      'url.path': '/items/7',
      'url.scheme': 'http',
      'http.route': '/items/:id',
      'http.response.status_code': 200,
      'server.address': '127.0.0.1',
      'server.port': Number(new URL(served.origin).port),
      'client.address': '127.0.0.1',
      'user_agent.original': 'bridge-test',
      'network.protocol.version': '1.1',
      'switchboard.request.type': 'main',
      'switchboard.route.name': 'item',
    });
    expect(server.status.code).toBe(SpanStatusCode.UNSET);
    expect(server.parentSpanContext).toBeUndefined();
  });

  it('records the request id, so an id quoted by a client finds its trace', async () => {
    enableBridge();
    const { spans } = await get('/identified');
    expect(serverSpan(spans).attributes['switchboard.request.id']).toBe('id-for-the-trace');
    exporter.reset();
    expect(serverSpan((await get('/items/1')).spans).attributes).not.toHaveProperty('switchboard.request.id');
  });

  it('lasts as long as an event stream, and says how many events it sent and how it ended', async () => {
    enableBridge();
    const { status, spans } = await get('/events');
    expect(status).toBe(200);
    expect(serverSpan(spans).attributes).toMatchObject({
      'http.route': '/events',
      'switchboard.event_stream.events_sent': 2,
      'switchboard.event_stream.ending': 'completed',
    });
  });

  it("is the active span in the controller: the application's spans nest under it, also after an await", async () => {
    enableBridge();
    let { spans } = await get('/items/1');
    expect(isChildOf(byName(spans, 'load item'), serverSpan(spans))).toBe(true);
    exporter.reset();
    ({ spans } = await get('/slow/2'));
    expect(serverSpan(spans).name).toBe('GET /slow/:id');
    expect(isChildOf(byName(spans, 'after await'), serverSpan(spans))).toBe(true);
  });

  it('continues the trace of an incoming traceparent', async () => {
    enableBridge();
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parentId = '00f067aa0ba902b7';
    const { spans } = await get('/items/3', { traceparent: `00-${traceId}-${parentId}-01` });
    const server = serverSpan(spans);
    expect(server.spanContext().traceId).toBe(traceId);
    expect(server.parentSpanContext?.spanId).toBe(parentId);
    expect(server.parentSpanContext?.isRemote).toBe(true);
  });

  it('ignores a malformed traceparent and starts a new trace', async () => {
    enableBridge();
    const { status, spans } = await get('/items/3', { traceparent: '00-not-a-trace-01' });
    expect(status).toBe(200);
    expect(serverSpan(spans).parentSpanContext).toBeUndefined();
  });

  it("is an error for a 5xx, with the exception, and the error page's sub-request is its own child span", async () => {
    enableBridge();
    const { status, spans } = await get('/boom');
    expect(status).toBe(500);
    const server = serverSpan(spans);
    expect(server.name).toBe('GET /boom');
    expect(server.attributes).toMatchObject({ 'http.response.status_code': 500, 'http.route': '/boom', 'error.type': 'TypeError' });
    expect(server.status).toEqual({ code: SpanStatusCode.ERROR, message: 'The controller broke.' });
    expect(server.events.map((event) => [event.name, event.attributes?.['exception.message']])).toEqual([
      ['exception', 'The controller broke.'],
    ]);
    const sub = spans.filter((span) => span.attributes['switchboard.request.type'] === 'sub');
    expect(sub).toHaveLength(1);
    expect(sub[0]!.kind).toBe(SpanKind.INTERNAL);
    expect(sub[0]!.name).toMatch(/^sub-request \S/);
    expect(sub[0]!.attributes['http.response.status_code']).toBe(500);
    expect(sub[0]!.status.code).toBe(SpanStatusCode.UNSET);
    expect(isChildOf(sub[0]!, server)).toBe(true);
  });

  it('leaves the status unset for a 4xx; a request no route takes is named after its method alone', async () => {
    enableBridge();
    let { status, spans } = await get('/denied');
    expect(status).toBe(403);
    expect(serverSpan(spans).status.code).toBe(SpanStatusCode.UNSET);
    expect(serverSpan(spans).attributes['http.response.status_code']).toBe(403);
    exporter.reset();
    ({ status, spans } = await get('/nowhere/at/all'));
    expect(status).toBe(404);
    const server = serverSpan(spans);
    expect(server.name).toBe('GET');
    expect(server.attributes['http.route']).toBeUndefined();
    expect(server.attributes['url.path']).toBe('/nowhere/at/all');
    expect(server.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('reports a method the conventions do not know as _OTHER', async () => {
    enableBridge();
    const response = await fetch(`${served.origin}/items/1`, { method: 'PURGE' });
    await response.arrayBuffer();
    expect(response.status).toBe(405);
    const server = serverSpan(exporter.getFinishedSpans());
    expect(server.name).toBe('HTTP');
    expect(server.attributes).toMatchObject({ 'http.request.method': '_OTHER', 'http.request.method_original': 'PURGE' });
  });
});

describe('listener spans', () => {
  it('are off by default', async () => {
    enableBridge();
    const { spans } = await get('/items/1');
    expect(spans.map((span) => span.name).sort()).toEqual(['GET /items/:id', 'load item']);
  });

  it('when on, show each listener call under its request, and the sub-request under the listener that made it', async () => {
    enableBridge(true);
    const { spans } = await get('/boom');
    const server = serverSpan(spans);
    const routing = spans.filter((span) => span.name === 'RouterListener.onKernelRequest');
    // The main request is routed; the error sub-request has its controller already, and is routed no further, but its listener still runs.
    expect(routing).toHaveLength(2);
    expect(routing[0]!.attributes).toMatchObject({
      'switchboard.event.name': 'kernel.request',
      'switchboard.listener.name': 'RouterListener.onKernelRequest',
      'switchboard.listener.priority': RouterListener.REQUEST_PRIORITY,
    });
    const onException = byName(spans, 'ErrorListener.onKernelException');
    expect(isChildOf(onException, server)).toBe(true);
    const sub = spans.find((span) => span.attributes['switchboard.request.type'] === 'sub')!;
    expect(isChildOf(sub, onException)).toBe(true);
    expect(routing.some((span) => isChildOf(span, sub))).toBe(true);
    expect(routing.some((span) => isChildOf(span, server))).toBe(true);
  });

  it('are errors when the listener threw', async () => {
    enableBridge(true);
    const { spans } = await get('/nowhere');
    const routing = spans.find((span) => span.name === 'RouterListener.onKernelRequest' && isChildOf(span, serverSpan(spans)))!;
    expect(routing.status.code).toBe(SpanStatusCode.ERROR);
    expect(routing.attributes['error.type']).toBe('NotFoundHttpError');
  });
});

describe('enable and disable', () => {
  it('makes no span once disabled', async () => {
    const bridge = enableBridge(true);
    expect(bridge.enabled).toBe(true);
    bridge.disable();
    expect(bridge.enabled).toBe(false);
    const { status, spans } = await get('/items/1');
    expect(status).toBe(200);
    expect(spans.map((span) => span.name)).toEqual(['load item']);
    expect(trace.getActiveSpan()).toBeUndefined();
  });
});

describe('incoming trace context and baggage', () => {
  const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
  const PARENT = '00f067aa0ba902b7';
  const INCOMING = { traceparent: `00-${TRACE}-${PARENT}-01`, baggage: 'user.role=admin' };
  let direct: ServedKernel;
  beforeAll(async () => {
    // Clients reach this one directly: no trusted proxy in front.
    direct = await serveKernel(appKernel());
  });
  afterAll(() => direct.close());

  /** The bridge with both W3C propagators, then GET /baggage on `origin` with the incoming headers. */
  async function continued(origin: string, incomingContext?: IncomingContextOption, headers: Record<string, string> = {}) {
    bridge = new OpenTelemetryBridge({
      tracerProvider: provider,
      propagator: new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
      ...(incomingContext === undefined ? {} : { incomingContext }),
    }).enable();
    const response = await fetch(`${origin}/baggage`, { headers: { ...INCOMING, ...headers } });
    const baggage = (await response.json()) as Record<string, string>;
    const server = serverSpan(exporter.getFinishedSpans());
    bridge.disable();
    exporter.reset();
    return { traceId: server.spanContext().traceId, parent: server.parentSpanContext?.spanId, baggage };
  }

  it('ignores them by default from a client that is not a trusted proxy: a new trace, no baggage', async () => {
    const { traceId, parent, baggage } = await continued(direct.origin);
    expect(traceId).not.toBe(TRACE);
    expect(parent).toBeUndefined();
    expect(baggage).toEqual({});
  });

  it('continues them by default from a trusted proxy', async () => {
    expect(await continued(served.origin)).toEqual({ traceId: TRACE, parent: PARENT, baggage: { 'user.role': 'admin' } });
  });

  it("continues every request's with incomingContext: 'all'", async () => {
    expect(await continued(direct.origin, 'all')).toEqual({ traceId: TRACE, parent: PARENT, baggage: { 'user.role': 'admin' } });
  });

  it('asks a function of the request', async () => {
    const fromMesh: IncomingContextOption = (request) => request.headers.get('x-mesh') === 'inside';
    expect((await continued(direct.origin, fromMesh, { 'x-mesh': 'inside' })).traceId).toBe(TRACE);
    expect((await continued(direct.origin, fromMesh)).traceId).not.toBe(TRACE);
  });

  it('refuses an unknown option at construction', () => {
    expect(() => new OpenTelemetryBridge({ incomingContext: 'everyone' as IncomingContextOption })).toThrow(TypeError);
  });
});
