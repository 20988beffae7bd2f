import { describe, expect, it } from 'vitest';
import {
  AccessDeniedHttpError,
  ClientGoneError,
  ControllerResolver,
  defineController,
  EventDispatcher,
  HttpKernel,
  MemoryLogger,
  MethodNotAllowedHttpError,
  NotFoundHttpError,
  RedirectResponse,
  Request,
  RequestType,
  Response,
  type Controller,
  type EventDispatcherInterface,
  type EventName,
  type KernelEventMap,
  type MaybePromise,
  type RequestStack,
} from '../src/index.js';
import { TraceableEventDispatcher, type DispatchTrace } from '../src/tracing.js';

interface Harness {
  dispatcher: EventDispatcherInterface<KernelEventMap>;
  kernel: HttpKernel;
  /** `event (main|sub)` for every dispatch, as the traceable dispatcher recorded it. */
  events: string[];
  logger: MemoryLogger;
}

function harness(controllers: Record<string, Controller> = {}): Harness {
  const events: string[] = [];
  const dispatcher = new TraceableEventDispatcher(new EventDispatcher<KernelEventMap>(), (trace, event) => {
    const request = (event as { requestType?: RequestType }).requestType;
    events.push(`${trace.eventName} ${request === RequestType.SUB ? 'sub' : 'main'}`);
  });
  const logger = new MemoryLogger();
  const kernel = new HttpKernel({ dispatcher, controllerResolver: new ControllerResolver(controllers), logger });
  return { dispatcher, kernel, events, logger };
}

function get(path = '/', controller?: Controller | string): Request {
  const request = Request.fromUrl(`http://localhost${path}`);
  if (controller !== undefined) request.attributes.set('_controller', controller);
  return request;
}

const ok = () => new Response('ok');

/** Answers any error with a 200 page naming it, as a minimal error listener would. */
function answerErrors(h: Harness, status = 200) {
  h.dispatcher.on('kernel.exception', (event) => {
    event.setResponse(new Response(`handled: ${(event.throwable as Error).message}`, status));
  });
}

describe('HttpKernel main flow', () => {
  it('runs request, controller, controller_arguments, response, finish_request around the controller', async () => {
    const h = harness();
    const response = await h.kernel.handle(get('/', ok));
    expect(await response.body).toBe('ok');
    expect(response.status).toBe(200);
    expect(response.headers.get('date')).toMatch(/GMT$/);
    expect(h.events).toEqual([
      'kernel.request main',
      'kernel.controller main',
      'kernel.controller_arguments main',
      'kernel.response main',
      'kernel.finish_request main',
    ]);
  });

  it('skips the controller when a kernel.request listener answers', async () => {
    const h = harness();
    let controllerCalled = false;
    h.dispatcher.on('kernel.request', (event) => event.setResponse(new Response('early', 203)), 10);
    h.dispatcher.on(
      'kernel.request',
      () => {
        throw new Error('must not run after a response was set');
      },
      0,
    );
    const response = await h.kernel.handle(
      get('/', () => {
        controllerCalled = true;
        return ok();
      }),
    );
    expect([response.status, response.body, controllerCalled]).toEqual([203, 'early', false]);
    expect(h.events).toEqual(['kernel.request main', 'kernel.response main', 'kernel.finish_request main']);
  });

  it('lets kernel.controller replace the controller and kernel.controller_arguments replace the arguments', async () => {
    const h = harness();
    const replacement = defineController([{ name: 'name', defaultValue: 'default' }], (name: string) => new Response(`replaced ${name}`));
    h.dispatcher.on('kernel.controller', (event) => event.setController(replacement));
    h.dispatcher.on('kernel.controller_arguments', (event) => event.setArguments(['args']));
    const response = await h.kernel.handle(get('/', ok));
    expect(response.body).toBe('replaced args');
  });

  it('lets kernel.response listeners replace the response without stopping later ones', async () => {
    const h = harness();
    h.dispatcher.on('kernel.response', (event) => event.setResponse(new Response('swapped', 202)), 10);
    h.dispatcher.on('kernel.response', (event) => void event.response.headers.set('x-later', 'ran'), 0);
    const response = await h.kernel.handle(get('/', ok));
    expect([response.status, response.body, response.headers.get('x-later')]).toEqual([202, 'swapped', 'ran']);
  });

  it('awaits async controllers and async listeners', async () => {
    const h = harness();
    h.dispatcher.on('kernel.request', async (event) => {
      await new Promise((resolve) => setTimeout(resolve, 2));
      event.request.attributes.set('who', 'async');
    });
    const response = await h.kernel.handle(get('/', async (who: string) => new Response(`hello ${who}`)));
    expect(response.body).toBe('hello async');
  });

  // The kernel stays synchronous until a step returns a promise: each step is made async (and
  // made to fail) in turn, and the flow, the answer and the stack must not depend on which.
  const steps = [
    'kernel.request',
    'kernel.controller',
    'kernel.controller_arguments',
    'controller',
    'kernel.view',
    'kernel.response',
    'kernel.finish_request',
  ] as const;
  for (const step of steps) {
    for (const mode of ['async', 'sync throw', 'async throw'] as const) {
      it(`gives the same flow when ${step} is ${mode}`, async () => {
        const h = harness();
        answerErrors(h);
        const settle = (): void | Promise<void> => {
          if (mode === 'sync throw') throw new Error(`${step} failed`);
          return new Promise<void>((resolve, reject) =>
            setTimeout(() => (mode === 'async' ? resolve() : reject(new Error(`${step} failed`))), 1),
          );
        };
        const eventSteps = steps.filter((name) => name !== 'controller');
        for (const name of eventSteps) {
          h.dispatcher.on(name, () => (name === step ? settle() : undefined));
        }
        h.dispatcher.on('kernel.view', (event) => event.setResponse(new Response(`viewed ${String(event.controllerResult)}`)), -1);
        const request = get('/', () => {
          const result = step === 'controller' ? settle() : undefined;
          return isPromise(result) ? result.then(() => 'data') : 'data';
        });
        const response = await h.kernel.handle(request);
        expect(request.requestStack?.size).toBe(0);
        if (mode === 'async') {
          expect(response.body).toBe('viewed data');
          expect(h.events).toEqual(eventSteps.map((name) => `${name} main`));
          return;
        }
        expect(response.body).toBe(`handled: ${step} failed`);
        expect(h.events).toContain('kernel.exception main');
        // A failing kernel.response also fails on the error response, which then goes out
        // unfiltered; a failing kernel.finish_request has had its one dispatch.
        const finishes = h.events.filter((event) => event === 'kernel.finish_request main');
        expect(finishes).toHaveLength(step === 'kernel.response' ? 0 : 1);
        const last = step === 'kernel.response' || step === 'kernel.finish_request' ? 'kernel.response main' : 'kernel.finish_request main';
        expect(h.events.at(-1)).toBe(last);
      });
    }
  }
});

describe('HttpKernel.handleEagerly', () => {
  it('returns the response itself when every step was synchronous, and pops the stack', () => {
    const h = harness();
    h.dispatcher.on('kernel.response', (event) => {
      event.response.headers.set('x-seen', 'yes');
    });
    const request = get('/', ok);
    const outcome = h.kernel.handleEagerly(request);
    expect(outcome).toBeInstanceOf(Response);
    expect((outcome as Response).headers.get('x-seen')).toBe('yes');
    expect(request.requestStack?.size).toBe(0);
  });

  it('returns a promise from the first step that waits, and a promise for any error', async () => {
    const h = harness();
    answerErrors(h);
    h.dispatcher.on('kernel.finish_request', () => new Promise<void>((resolve) => setTimeout(resolve, 1)));
    const waiting = h.kernel.handleEagerly(get('/', ok));
    expect(waiting).toBeInstanceOf(Promise);
    expect((await waiting).body).toBe('ok');
    const failing = h.kernel.handleEagerly(
      get('/', () => {
        throw new Error('boom');
      }),
    );
    expect(failing).toBeInstanceOf(Promise);
    expect((await failing).body).toBe('handled: boom');
  });

  it('still lets listeners of kernel.controller and kernel.controller_arguments replace what the kernel calls', () => {
    // On a plain dispatcher, as in production: the listening side, without a trace.
    const dispatcher = new EventDispatcher<KernelEventMap>();
    const kernel = new HttpKernel({ dispatcher });
    dispatcher.on('kernel.controller', (event) =>
      event.setController(defineController([], (...words: unknown[]) => new Response(`replaced ${words.join(' ')}`))),
    );
    dispatcher.on('kernel.controller_arguments', (event) => event.setArguments(['args']));
    const outcome = kernel.handleEagerly(get('/', ok)) as Response;
    expect(outcome.body).toBe('replaced args');
  });
});

function isPromise(value: unknown): value is Promise<void> {
  return value instanceof Promise;
}

describe('HttpKernel views', () => {
  it('dispatches kernel.view for a non-Response result and uses the response a listener sets', async () => {
    const h = harness();
    h.dispatcher.on('kernel.view', (event) => event.setResponse(new Response(JSON.stringify(event.controllerResult))));
    const response = await h.kernel.handle(get('/', () => ({ id: 7 })));
    expect(response.body).toBe('{"id":7}');
    expect(h.events).toContain('kernel.view main');
  });

  it('turns a result no view listener answers into a 500 that names the controller', async () => {
    const h = harness();
    answerErrors(h);
    const response = await h.kernel.handle(
      get('/', function listItems() {
        return undefined;
      }),
    );
    expect(response.status).toBe(500);
    expect(response.body).toBe(
      'handled: The controller "listItems" must return a "Response" object but it returned undefined. ' +
        'Did you forget to add a return statement somewhere in your controller?',
    );
  });
});

describe('HttpKernel errors', () => {
  it('answers 404 when no controller is set', async () => {
    const h = harness();
    answerErrors(h);
    const response = await h.kernel.handle(get('/nowhere'));
    expect(response.status).toBe(404);
    expect(response.body).toBe('handled: Unable to find the controller for path "/nowhere". The route is wrongly configured.');
  });

  it('handles an error thrown in kernel.request: exception, then response and finish_request, no controller', async () => {
    const h = harness();
    answerErrors(h);
    h.dispatcher.on('kernel.request', () => {
      throw new NotFoundHttpError('No route');
    });
    const response = await h.kernel.handle(get('/', ok));
    expect(response.status).toBe(404);
    expect(h.events).toEqual(['kernel.request main', 'kernel.exception main', 'kernel.response main', 'kernel.finish_request main']);
  });

  it('takes a kernel.request failure (failWith) through the same path as a throw, without one', async () => {
    const runs = (['throw', 'failWith'] as const).map((how) => {
      const traces: DispatchTrace[] = [];
      const plain = new EventDispatcher<KernelEventMap>();
      const traced = new TraceableEventDispatcher(plain, (trace) => traces.push(trace));
      const seen: string[] = [];
      plain.on(
        'kernel.request',
        (event) => {
          const error = new NotFoundHttpError('No route');
          if (how === 'throw') throw error;
          event.failWith(error);
        },
        8,
        { name: 'router' },
      );
      plain.on('kernel.request', () => void seen.push('later request listener'), 0, { name: 'later' });
      plain.on('kernel.exception', (event) => {
        seen.push(`exception ${(event.throwable as Error).message}`);
        event.setResponse(new Response('handled'));
      });
      plain.on('kernel.response', (event) => void seen.push(`response ${event.response.status}`));
      return { plain, traced, traces, seen };
    });
    for (const run of runs) {
      // Untraced: the kernel answers at once, with the error's status.
      const response = new HttpKernel({ dispatcher: run.plain }).handleEagerly(get('/', ok)) as Response;
      expect(response.status).toBe(404);
      await new HttpKernel({ dispatcher: run.traced }).handle(get('/', ok));
    }
    const [thrown, failed] = runs;
    expect(failed!.seen).toEqual(thrown!.seen);
    expect(failed!.seen).toEqual(['exception No route', 'response 404', 'exception No route', 'response 404']);
    // The profiler's trace shows the failing listener as one that threw, the dispatch ended by its error.
    const requestTrace = (run: (typeof runs)[number]) => {
      const trace = run.traces.find((t) => t.eventName === 'kernel.request')!;
      return {
        called: trace.called.map(({ name, threw }) => ({ name, threw })),
        notCalled: trace.notCalled,
        stoppedBy: trace.stoppedBy,
        error: (trace.error as Error).message,
      };
    };
    expect(requestTrace(failed!)).toEqual(requestTrace(thrown!));
    expect(requestTrace(failed!)).toMatchObject({ called: [{ name: 'router', threw: true }], notCalled: [], stoppedBy: null });
  });

  it('forces the error status and headers onto a 200 answer, and 500 for a non-HTTP error', async () => {
    const h = harness();
    answerErrors(h);
    const notAllowed = await h.kernel.handle(
      get('/', () => {
        throw new MethodNotAllowedHttpError(['GET', 'POST']);
      }),
    );
    expect([notAllowed.status, notAllowed.headers.get('allow')]).toEqual([405, 'GET, POST']);
    const plain = await h.kernel.handle(
      get('/', () => {
        throw new TypeError('bug');
      }),
    );
    expect(plain.status).toBe(500);
  });

  it('keeps an error or redirect status a listener chose, and any status after allowCustomResponseCode', async () => {
    for (const [status, custom, expected] of [
      [403, false, 403],
      [301, false, 301],
      [302, false, 302],
      [200, true, 200],
      [204, false, 404],
    ] as const) {
      const h = harness();
      h.dispatcher.on('kernel.exception', (event) => {
        if (custom) event.allowCustomResponseCode();
        event.setResponse(status === 301 || status === 302 ? new RedirectResponse('/x', status) : new Response('', status));
      });
      const response = await h.kernel.handle(
        get('/', () => {
          throw new NotFoundHttpError();
        }),
      );
      expect([status, response.status]).toEqual([status, expected]);
    }
  });

  it('lets a kernel.exception listener replace the error', async () => {
    const h = harness();
    h.dispatcher.on('kernel.exception', (event) => event.setThrowable(new AccessDeniedHttpError('replaced')), 10);
    answerErrors(h);
    const response = await h.kernel.handle(
      get('/', () => {
        throw new Error('original');
      }),
    );
    expect([response.status, response.body]).toEqual([403, 'handled: replaced']);
  });

  it('handles an error thrown in kernel.response through kernel.exception, running kernel.response again', async () => {
    const h = harness();
    answerErrors(h);
    let failures = 0;
    h.dispatcher.on('kernel.response', (event) => {
      if (event.response.body === 'ok' && failures++ === 0) throw new Error('response listener failed');
    });
    const response = await h.kernel.handle(get('/', ok));
    expect([response.status, response.body]).toEqual([500, 'handled: response listener failed']);
    expect(h.events).toEqual([
      'kernel.request main',
      'kernel.controller main',
      'kernel.controller_arguments main',
      'kernel.response main',
      'kernel.exception main',
      'kernel.response main',
      'kernel.finish_request main',
    ]);
  });

  it('returns the unfiltered error response when kernel.response fails again on the error path', async () => {
    const h = harness();
    answerErrors(h, 500);
    h.dispatcher.on('kernel.response', (event) => {
      event.response.headers.set('x-before-failure', 'kept');
      throw new Error('always fails');
    });
    const response = await h.kernel.handle(get('/', ok));
    expect([response.status, response.body, response.headers.get('x-before-failure')]).toEqual([500, 'handled: always fails', 'kept']);
    // finish_request never ran for the failed filtering
    expect(h.events.filter((e) => e.startsWith('kernel.finish_request'))).toEqual([]);
    expect(h.logger.records.map((r) => r.level)).toEqual(['CRITICAL']);
  });

  it('logs a request abandoned by its client at INFO, not as a server fault', async () => {
    const h = harness();
    const client = new AbortController();
    const request = Request.fromUrl('http://localhost/', { signal: client.signal });
    request.attributes.set(
      '_controller',
      defineController(['request'], async (r: Request) => {
        client.abort(new ClientGoneError());
        throw r.signal.reason;
      }),
    );
    const response = await h.kernel.handle(request);
    expect(response.status).toBe(500);
    expect(h.logger.records.map((r) => r.level)).toEqual(['INFO']);
  });

  it('answers a plain page with the original status when a kernel.exception listener throws, twice', async () => {
    const h = harness();
    h.dispatcher.on('kernel.exception', () => {
      throw new Error('error listener broken');
    });
    const request = get('/', () => {
      throw new NotFoundHttpError('missing');
    });
    const response = await h.kernel.handle(request);
    expect(response.status).toBe(404);
    expect(request.requestStack?.size).toBe(0);
    expect(response.body).toBe('404 Not Found\n');
    expect(response.headers.get('content-type')).toBe('text/plain; charset=UTF-8');
    expect(h.logger.records.at(-1)?.message).toContain('error listener broken');
  });

  it('dispatches kernel.finish_request once for a main request, whichever error path it took', async () => {
    const missing = () => {
      throw new NotFoundHttpError('missing');
    };
    const finishRequests = async (controller: Controller, setup: (h: Harness) => void, status: number): Promise<string[]> => {
      const h = harness();
      setup(h);
      expect((await h.kernel.handle(get('/', controller))).status).toBe(status);
      return h.events.filter((event) => event.startsWith('kernel.finish_request'));
    };
    // No kernel.exception listener answers, on either pass: the plain page.
    expect(await finishRequests(missing, () => {}, 404)).toEqual(['kernel.finish_request main']);
    // Every kernel.exception listener throws: the plain page too.
    const brokenErrorListener = (h: Harness) =>
      h.dispatcher.on('kernel.exception', () => {
        throw new Error('error listener broken');
      });
    expect(await finishRequests(missing, brokenErrorListener, 404)).toEqual(['kernel.finish_request main']);
    // A kernel.finish_request listener fails: its error is answered, without a second dispatch.
    const brokenFinishListener = (h: Harness) => {
      answerErrors(h, 500);
      h.dispatcher.on('kernel.finish_request', () => {
        throw new Error('finish failed');
      });
    };
    expect(await finishRequests(ok, brokenFinishListener, 500)).toEqual(['kernel.finish_request main']);
  });

  it('answers a plain 500 when no listener handles the error (no unhandled rejection)', async () => {
    const h = harness();
    const response = await h.kernel.handle(
      get('/', async () => {
        throw new Error('nobody listens');
      }),
    );
    expect([response.status, response.body]).toEqual([500, '500 Internal Server Error\n']);
  });

  it('rethrows after finish_request with catch = false', async () => {
    const h = harness();
    answerErrors(h);
    const boom = new Error('not caught');
    const request = get('/', () => {
      throw boom;
    });
    await expect(h.kernel.handle(request, RequestType.MAIN, false)).rejects.toBe(boom);
    expect(h.events).toEqual([
      'kernel.request main',
      'kernel.controller main',
      'kernel.controller_arguments main',
      'kernel.finish_request main',
    ]);
    expect(request.requestStack?.size).toBe(0);
  });

  it('rejects an async listener failure into the error flow', async () => {
    const h = harness();
    answerErrors(h);
    h.dispatcher.on('kernel.controller', async () => {
      await Promise.resolve();
      throw new AccessDeniedHttpError('async denial');
    });
    const response = await h.kernel.handle(get('/', ok));
    expect([response.status, response.body]).toEqual([403, 'handled: async denial']);
  });
});

describe('HttpKernel sub-requests and the RequestStack', () => {
  it('handles a sub-request inside a main request with current, main and parent right', async () => {
    const h = harness();
    const seen: Record<string, unknown> = {};
    const subController = defineController(['request'], (request: Request) => {
      const stack = request.requestStack as RequestStack;
      seen.subCurrent = stack.getCurrentRequest() === request;
      seen.subParentIsMain = stack.getParentRequest() === stack.getMainRequest();
      seen.depth = stack.size;
      return new Response('from sub');
    });
    h.dispatcher.on('kernel.finish_request', (event) => {
      if (!event.isMainRequest()) seen.parentDuringSubFinish = event.requestStack?.getParentRequest() !== null;
    });
    const mainController = defineController(['request'], async (request: Request) => {
      const sub = request.duplicate({ attributes: [['_controller', subController]] });
      const inner = await h.kernel.handle(sub, RequestType.SUB);
      seen.afterSubCurrentIsMain = request.requestStack?.getCurrentRequest() === request;
      return new Response(`main wraps ${String(inner.body)}`);
    });
    const main = get('/', mainController);
    const response = await h.kernel.handle(main);
    expect(response.body).toBe('main wraps from sub');
    expect(seen).toEqual({
      subCurrent: true,
      subParentIsMain: true,
      depth: 2,
      parentDuringSubFinish: true,
      afterSubCurrentIsMain: true,
    });
    expect(main.requestStack?.size).toBe(0);
    expect(h.events).toEqual([
      'kernel.request main',
      'kernel.controller main',
      'kernel.controller_arguments main',
      'kernel.request sub',
      'kernel.controller sub',
      'kernel.controller_arguments sub',
      'kernel.response sub',
      'kernel.finish_request sub',
      'kernel.response main',
      'kernel.finish_request main',
    ]);
  });

  it('builds an event only for the request types a listener is called for', async () => {
    // A real dispatcher that also notes what the kernel hands it.
    const dispatched: string[] = [];
    class NotingDispatcher extends EventDispatcher<KernelEventMap> {
      override dispatch<K extends EventName<KernelEventMap>>(eventName: K, event: KernelEventMap[K]): MaybePromise<KernelEventMap[K]> {
        dispatched.push(`${eventName} ${event.isMainRequest() ? 'main' : 'sub'}`);
        return super.dispatch(eventName, event);
      }
    }
    const dispatcher = new NotingDispatcher();
    dispatcher.on('kernel.finish_request', () => {}, 0, { subRequestOnly: true });
    dispatcher.on('kernel.response', () => {}, 0, { mainRequestOnly: true });
    const kernel = new HttpKernel({ dispatcher, logger: new MemoryLogger() });
    const mainController = defineController(['request'], async (request: Request) => {
      await kernel.handle(request.duplicate({ attributes: [['_controller', ok]] }), RequestType.SUB);
      return new Response('main');
    });
    await kernel.handle(get('/', mainController));
    expect(dispatched).toEqual(['kernel.finish_request sub', 'kernel.response main']);
  });

  it('lets a failing sub-request (catch = false) reach its caller and keeps the stack balanced', async () => {
    const h = harness();
    answerErrors(h);
    const main = get(
      '/',
      defineController(['request'], async (request: Request) => {
        const sub = request.duplicate({
          attributes: [
            [
              '_controller',
              () => {
                throw new Error('sub failed');
              },
            ],
          ],
        });
        try {
          await h.kernel.handle(sub, RequestType.SUB, false);
        } catch (error) {
          return new Response(`caught ${(error as Error).message} at depth ${request.requestStack?.size}`);
        }
        return new Response('unreachable');
      }),
    );
    const response = await h.kernel.handle(main);
    expect(response.body).toBe('caught sub failed at depth 1');
    expect(main.requestStack?.size).toBe(0);
  });

  it('keeps concurrent main requests on separate stacks', async () => {
    const h = harness();
    const depths: number[] = [];
    const slow = defineController(['request'], async (request: Request) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      depths.push(request.requestStack?.size ?? -1);
      return ok();
    });
    await Promise.all(Array.from({ length: 20 }, () => h.kernel.handle(get('/', slow))));
    expect(depths).toEqual(Array.from({ length: 20 }, () => 1));
  });
});

describe('HttpKernel arguments', () => {
  it('resolves the request, route attributes, and defaults from parameter names', async () => {
    const h = harness();
    const request = get('/items/42', (request: Request, id: string, page = 1) => new Response(`${request.method} ${id} ${page}`));
    request.attributes.set('id', '42');
    expect((await h.kernel.handle(request)).body).toBe('GET 42 1');
  });

  it('resolves declared arguments and reports a missing one as a 500 naming it', async () => {
    const h = harness();
    answerErrors(h);
    const show = defineController(['slug'], (slug: string) => new Response(slug), 'ItemController::show');
    const response = await h.kernel.handle(get('/', show));
    expect(response.status).toBe(500);
    expect(response.body).toContain('Controller "ItemController::show" requires a value for the "slug" argument');
  });

  it('finds named controllers through the ControllerResolver', async () => {
    const h = harness({ 'health.check': () => new Response('healthy') });
    expect((await h.kernel.handle(get('/', 'health.check'))).body).toBe('healthy');
  });

  it('uses async value resolvers in order', async () => {
    const dispatcher = new EventDispatcher<KernelEventMap>();
    const { ArgumentResolver } = await import('../src/index.js');
    const kernel = new HttpKernel({
      dispatcher,
      argumentResolver: new ArgumentResolver([
        {
          name: 'body',
          resolve: async (_request, argument) => (argument.name === 'payload' ? [{ parsed: true }] : null),
          canResolve: (argument) => argument.name === 'payload',
        },
      ]),
    });
    const response = await kernel.handle(
      get('/', (payload: { parsed: boolean }, request: Request) => new Response(`${payload.parsed} ${request.method}`)),
    );
    expect(response.body).toBe('true GET');
  });
});

describe('HttpKernel terminate', () => {
  it('dispatches kernel.terminate and logs instead of rejecting when a listener fails', async () => {
    const h = harness();
    h.dispatcher.on('kernel.terminate', () => {
      throw new Error('save failed');
    });
    const request = get('/', ok);
    const response = await h.kernel.handle(request);
    await expect(h.kernel.terminate(request, response)).resolves.toBeUndefined();
    expect(h.logger.records.map((r) => [r.level, r.channel])).toEqual([['CRITICAL', 'kernel']]);
  });

  it('terminateEagerly runs synchronous listeners at once, with no promise, and logs a failure instead of throwing', async () => {
    const h = harness();
    const ran: string[] = [];
    h.dispatcher.on('kernel.terminate', () => void ran.push('first'), 10);
    h.dispatcher.on('kernel.terminate', () => {
      throw new Error('save failed');
    });
    const request = get('/', ok);
    const response = await h.kernel.handle(request);
    expect(h.kernel.terminateEagerly(request, response)).toBeUndefined();
    expect(ran).toEqual(['first']);
    expect(h.logger.records.map((r) => [r.level, r.channel, r.message])).toEqual([
      ['CRITICAL', 'kernel', 'Error during kernel.terminate: Error: save failed'],
    ]);
  });

  it('terminateEagerly returns a promise when a listener waits, settled once the later listeners ran; a rejection is logged', async () => {
    const h = harness();
    const ran: string[] = [];
    let release!: () => void;
    h.dispatcher.on('kernel.terminate', () => new Promise<void>((resolve) => (release = resolve)), 10);
    h.dispatcher.on('kernel.terminate', () => {
      ran.push('after the wait');
      return Promise.reject(new Error('flush failed'));
    });
    const request = get('/', ok);
    const response = await h.kernel.handle(request);
    const outcome = h.kernel.terminateEagerly(request, response);
    expect(outcome).toBeInstanceOf(Promise);
    expect(ran).toEqual([]);
    release();
    await expect(outcome).resolves.toBeUndefined();
    expect(ran).toEqual(['after the wait']);
    expect(h.logger.records.map((r) => r.message)).toEqual(['Error during kernel.terminate: Error: flush failed']);
  });

  it("shares one clock reading per request start and one per end among the listeners that time it, and passes on the host's word on the response", async () => {
    const h = harness();
    const starts: number[] = [];
    const ends: Array<[number, boolean | undefined]> = [];
    for (const priority of [20, 10]) {
      h.dispatcher.on('kernel.request', (event) => void starts.push(event.request.startTiming()), priority);
      h.dispatcher.on('kernel.terminate', (event) => void ends.push([event.endTime, event.responseFinished]), priority);
    }
    const request = get('/', ok);
    expect(request.startTime).toBe(undefined);
    const response = await h.kernel.handle(request);
    h.kernel.terminateEagerly(request, response, false);
    expect(starts).toEqual([request.startTime, request.startTime]);
    expect(ends).toEqual([
      [ends[0]![0], false],
      [ends[0]![0], false],
    ]);
    expect(ends[0]![0]).toBeGreaterThanOrEqual(request.startTime!);
    // A host that does not say: undefined, and a new reading for this dispatch.
    await h.kernel.terminate(request, response);
    expect(ends[2]![1]).toBe(undefined);
  });
});
