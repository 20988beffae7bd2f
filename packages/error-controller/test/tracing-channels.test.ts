/**
 * The kernel's tracing channels (`switchboard.kernel.request`, `switchboard.kernel.listener`,
 * docs/observability.md) seen by real subscribers while a real node:http server answers. Here
 * rather than in the kernel's tests because the error sub-request needs the error listener.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { TracingChannelSubscribers } from 'node:diagnostics_channel';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AccessDeniedHttpError,
  defineController,
  EventDispatcher,
  HttpKernel,
  JsonResponse,
  MemoryLogger,
  Request,
  RequestType,
  type KernelEventMap,
  type RequestEvent,
} from '@switchboard/http-kernel';
import {
  bindCallScope,
  KERNEL_LISTENER_CHANNEL,
  KERNEL_REQUEST_CHANNEL,
  kernelListenerChannel,
  kernelRequestChannel,
  TraceableEventDispatcher,
  unbindCallScope,
  type KernelRequestContext,
  type ListenerCallContext,
  type TracedCallScope,
} from '@switchboard/http-kernel/tracing';
import { serveKernel, type ServedKernel } from '../../../test/kit/index.js';
import { RouteCollection, Router, RouterListener } from '@switchboard/router';
import { ErrorListener } from '../src/index.js';

type Phase = 'start' | 'end' | 'asyncStart' | 'asyncEnd' | 'error';

/** What a subscriber saw at one publication, copied then (the context object changes afterwards). */
interface RequestSeen {
  phase: Phase;
  context: KernelRequestContext;
  type: 'main' | 'sub';
  path: string;
  route: string | null;
  routePath: string | null;
  async: boolean;
  status: number | undefined;
  error: unknown;
}

interface ListenerSeen {
  phase: Phase;
  eventName: string;
  eventClass: string;
  listenerName: string;
  priority: number;
  async: boolean;
  error: unknown;
}

const requestsSeen: RequestSeen[] = [];
const listenersSeen: ListenerSeen[] = [];

/** A subscriber of all five channels of a tracing channel, each publication handed to `record` with its phase. */
function subscriberOf<C extends object>(record: (phase: Phase, context: C) => void): TracingChannelSubscribers<C> {
  return {
    start: (context) => record('start', context),
    end: (context) => record('end', context),
    asyncStart: (context) => record('asyncStart', context),
    asyncEnd: (context) => record('asyncEnd', context),
    error: (context) => record('error', context),
  };
}

const requestSubscriber = subscriberOf<KernelRequestContext>((phase, context) => {
  requestsSeen.push({
    phase,
    context,
    type: context.type,
    path: context.request.path,
    route: context.route,
    routePath: context.routePath,
    async: context.async,
    status: context.result?.status,
    error: context.error,
  });
});
const listenerSubscriber = subscriberOf<ListenerCallContext>((phase, context) => {
  listenersSeen.push({
    phase,
    eventName: context.eventName,
    eventClass: context.event.constructor.name,
    listenerName: context.listenerName,
    priority: context.priority,
    async: context.async,
    error: context.error,
  });
});

/** The request id a bound store holds while the kernel runs a request: what a tracer's context manager gets. */
const requestStore = new AsyncLocalStorage<string>();
let storeSeenByController: Array<string | undefined> = [];
/** What a call scope (`bindCallScope`) enters around each request, seen by the controllers the same way. */
const scopeStore = new AsyncLocalStorage<string>();
let scopeSeenByController: Array<string | undefined> = [];

const SLOW_CHECK_PRIORITY = 20;
/** Waits a turn on `/slow/…` main requests only; a synchronous listener otherwise. */
const slowCheck = (event: RequestEvent): Promise<void> | undefined =>
  event.isMainRequest() && event.request.path.startsWith('/slow') ? nextTurn().then(() => undefined) : undefined;
const denyListener = (event: RequestEvent): void => {
  if (event.isMainRequest() && event.request.path === '/deny') throw new AccessDeniedHttpError('No entry.');
};

function buildKernel(debug: boolean): HttpKernel {
  const routes = new RouteCollection()
    .add('item', '/items/:id', {
      methods: ['GET'],
      controller: defineController(['id'], (id: string) => {
        storeSeenByController.push(requestStore.getStore());
        scopeSeenByController.push(scopeStore.getStore());
        return new JsonResponse({ id });
      }),
    })
    .add('slow', '/slow/:id', {
      methods: ['GET'],
      controller: defineController(['id'], async (id: string) => {
        await nextTurn();
        storeSeenByController.push(requestStore.getStore());
        scopeSeenByController.push(scopeStore.getStore());
        return new JsonResponse({ id, slow: true });
      }),
    })
    .add('boom', '/boom', {
      methods: ['GET'],
      controller: defineController([], () => {
        throw new Error('The controller broke.');
      }),
    })
    .add('deny', '/deny', { methods: ['GET'], controller: defineController([], () => new JsonResponse({})) });
  const dispatcher = new EventDispatcher<KernelEventMap>();
  const logger = new MemoryLogger();
  dispatcher.addSubscriber(new RouterListener(new Router(routes)));
  dispatcher.addListener('kernel.request', slowCheck, SLOW_CHECK_PRIORITY, { name: 'slowCheck' });
  dispatcher.addListener('kernel.request', denyListener, 10, { name: 'denyListener' });
  dispatcher.addSubscriber(new ErrorListener({ debug, logger }));
  return new HttpKernel({ dispatcher: debug ? new TraceableEventDispatcher(dispatcher, () => {}) : dispatcher, logger });
}

let served: ServedKernel;
let servedDebug: ServedKernel;
let nextId = 0;

beforeAll(async () => {
  kernelRequestChannel.subscribe(requestSubscriber);
  kernelListenerChannel.subscribe(listenerSubscriber);
  kernelRequestChannel.start.bindStore(requestStore, (context) => `${context.type} ${context.request.path} #${++nextId}`);
  served = await serveKernel(buildKernel(false));
  servedDebug = await serveKernel(buildKernel(true));
});

afterAll(async () => {
  kernelRequestChannel.unsubscribe(requestSubscriber);
  kernelListenerChannel.unsubscribe(listenerSubscriber);
  kernelRequestChannel.start.unbindStore(requestStore);
  await served?.close();
  await servedDebug?.close();
});

beforeEach(() => {
  requestsSeen.length = 0;
  listenersSeen.length = 0;
  storeSeenByController = [];
  scopeSeenByController = [];
});

const phasesOf = (seen: ReadonlyArray<{ phase: Phase }>): Phase[] => seen.map((entry) => entry.phase);

describe('switchboard.kernel.request', () => {
  it('publishes start and end for a request answered synchronously, with the route known at the end', async () => {
    const response = await fetch(`${served.origin}/items/7`);
    expect(response.status).toBe(200);
    expect(
      requestsSeen.map(({ phase, type, route, routePath, async, status }) => ({ phase, type, route, routePath, async, status })),
    ).toEqual([
      { phase: 'start', type: 'main', route: null, routePath: null, async: false, status: undefined },
      { phase: 'end', type: 'main', route: 'item', routePath: '/items/:id', async: false, status: 200 },
    ]);
    expect(requestsSeen[0]!.context.requestType).toBe(RequestType.MAIN);
    expect(requestsSeen[0]!.context).toBe(requestsSeen[1]!.context);
  });

  it('publishes end, then asyncStart and asyncEnd with the response, for a request that waits', async () => {
    const response = await fetch(`${served.origin}/slow/3`);
    expect(await response.json()).toEqual({ id: '3', slow: true });
    expect(phasesOf(requestsSeen)).toEqual(['start', 'end', 'asyncStart', 'asyncEnd']);
    expect(requestsSeen[1]).toMatchObject({ async: true, status: undefined });
    expect(requestsSeen[3]).toMatchObject({ async: true, status: 200, route: 'slow', routePath: '/slow/:id', error: undefined });
  });

  it("runs the request inside the stores bound to its start channel, across the controller's awaits", async () => {
    await fetch(`${served.origin}/items/1`);
    await fetch(`${served.origin}/slow/2`);
    expect(storeSeenByController).toHaveLength(2);
    expect(storeSeenByController[0]).toMatch(/^main \/items\/1 #\d+$/);
    expect(storeSeenByController[1]).toMatch(/^main \/slow\/2 #\d+$/);
  });

  it("runs the request inside a bound call scope, entered before start, across the controller's awaits; not once unbound", async () => {
    const publishedBeforeScope: number[] = [];
    const scope: TracedCallScope<KernelRequestContext> = (context, call) => {
      publishedBeforeScope.push(requestsSeen.length);
      return scopeStore.run(`scope ${context.type} ${context.request.path}`, call);
    };
    bindCallScope(KERNEL_REQUEST_CHANNEL, scope);
    try {
      await fetch(`${served.origin}/items/4`);
      await fetch(`${served.origin}/slow/5`);
    } finally {
      expect(unbindCallScope(KERNEL_REQUEST_CHANNEL, scope)).toBe(true);
    }
    await fetch(`${served.origin}/items/6`);
    expect(scopeSeenByController).toEqual(['scope main /items/4', 'scope main /slow/5', undefined]);
    // Each request's scope was entered before its start was published; the stores bound to start still run inside it.
    expect(publishedBeforeScope).toEqual([0, 2]);
    expect(storeSeenByController[1]).toMatch(/^main \/slow\/5 #\d+$/);
    expect(unbindCallScope(KERNEL_REQUEST_CHANNEL, scope)).toBe(false);
  });

  it("shows the error controller's sub-request inside the main request, and the caught error on the main one", async () => {
    const response = await fetch(`${served.origin}/boom`, { headers: { accept: 'application/json' } });
    expect(response.status).toBe(500);
    expect(requestsSeen.map(({ phase, type, status }) => `${type} ${phase} ${status ?? '-'}`)).toEqual([
      'main start -',
      'sub start -',
      'sub end 500',
      'main end 500',
    ]);
    const main = requestsSeen[0]!.context;
    const sub = requestsSeen[1]!.context;
    expect(main.exception).toBeInstanceOf(Error);
    expect((main.exception as Error).message).toBe('The controller broke.');
    expect(main.route).toBe('boom');
    expect(sub.type).toBe('sub');
    expect(sub.requestType).toBe(RequestType.SUB);
    expect(sub.request.attributes.get('exception')).toBe(main.exception);
    expect(sub.route).toBeNull();
    expect(sub.exception).toBeUndefined();
  });

  it('gives a 404 (no route matched) a null route and the routing error', async () => {
    const response = await fetch(`${served.origin}/nowhere`, { headers: { accept: 'application/json' } });
    expect(response.status).toBe(404);
    const end = requestsSeen.find((seen) => seen.type === 'main' && seen.phase === 'end')!;
    expect(end).toMatchObject({ route: null, routePath: null, status: 404 });
    expect(end.context.exception).toBeInstanceOf(Error);
  });

  it('publishes error, then asyncStart and asyncEnd, when the caller asked for errors and one escaped', async () => {
    const kernel = buildKernel(false);
    const request = new Request({ method: 'GET', path: '/boom', headers: { host: 'localhost' } });
    await expect(kernel.handle(request, RequestType.MAIN, false)).rejects.toThrow('The controller broke.');
    expect(phasesOf(requestsSeen)).toEqual(['start', 'end', 'error', 'asyncStart', 'asyncEnd']);
    expect((requestsSeen[2]!.error as Error).message).toBe('The controller broke.');
    expect(requestsSeen[4]!.status).toBeUndefined();
  });
});

describe('switchboard.kernel.listener', () => {
  for (const debug of [false, true]) {
    const mode = debug ? 'debug (TraceableEventDispatcher)' : 'production (EventDispatcher)';

    it(`publishes each listener call with its event, name and priority, in ${mode}`, async () => {
      await fetch(`${(debug ? servedDebug : served).origin}/items/5`);
      const kernelRequest = listenersSeen.filter((seen) => seen.eventName === 'kernel.request');
      expect(kernelRequest.map(({ phase, listenerName, priority }) => `${phase} ${listenerName} ${priority}`)).toEqual([
        `start RouterListener.onKernelRequest ${RouterListener.REQUEST_PRIORITY}`,
        `end RouterListener.onKernelRequest ${RouterListener.REQUEST_PRIORITY}`,
        `start slowCheck ${SLOW_CHECK_PRIORITY}`,
        `end slowCheck ${SLOW_CHECK_PRIORITY}`,
        'start denyListener 10',
        'end denyListener 10',
      ]);
      expect(new Set(kernelRequest.map((seen) => seen.eventClass))).toEqual(new Set(['RequestEvent']));
    });

    it(`publishes asyncStart and asyncEnd for a listener that waits, in ${mode}`, async () => {
      await fetch(`${(debug ? servedDebug : served).origin}/slow/1`);
      const slow = listenersSeen.filter((seen) => seen.listenerName === 'slowCheck');
      expect(slow.map(({ phase, async }) => `${phase} ${async}`)).toEqual(['start false', 'end true', 'asyncStart true', 'asyncEnd true']);
    });

    it(`publishes error for a listener that throws, then the error sub-request's listeners, in ${mode}`, async () => {
      const response = await fetch(`${(debug ? servedDebug : served).origin}/deny`, { headers: { accept: 'application/json' } });
      expect(response.status).toBe(403);
      const denied = listenersSeen.filter((seen) => seen.listenerName === 'denyListener');
      expect(denied.map(({ phase }) => phase)).toEqual(['start', 'error', 'end', 'start', 'end']);
      expect(denied[1]!.error).toBeInstanceOf(AccessDeniedHttpError);
      const exception = listenersSeen.filter((seen) => seen.eventName === 'kernel.exception' && seen.phase === 'start');
      expect(exception.map((seen) => seen.listenerName)).toEqual(['ErrorListener.logKernelException', 'ErrorListener.onKernelException']);
    });
  }
});

describe('channel names', () => {
  it('are the documented ones', () => {
    expect(KERNEL_REQUEST_CHANNEL).toBe('switchboard.kernel.request');
    expect(KERNEL_LISTENER_CHANNEL).toBe('switchboard.kernel.listener');
  });
});
