import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  Event,
  EventDispatcher,
  RequestType,
  type EventSubscriber,
  type KernelEventMap,
  type ResponseEvent,
  type SubscribedEvents,
} from '../src/index.js';
import { kernelListenerChannel, TraceableEventDispatcher, type DispatchTrace } from '../src/tracing.js';

class Recorded extends Event {
  readonly calls: string[] = [];
}

type Events = { ping: Recorded; pong: Recorded };

/** A listener that records its name; named so traces and getListeners show it. */
function recorder(id: string, effect?: (event: Recorded) => void) {
  const fn = (event: Recorded) => {
    event.calls.push(id);
    effect?.(event);
  };
  Object.defineProperty(fn, 'name', { value: id });
  return fn;
}

describe('EventDispatcher ordering', () => {
  it('runs higher priorities first and equal priorities in registration order', () => {
    const d = new EventDispatcher<Events>();
    d.on('ping', recorder('p0a'), 0).on('ping', recorder('m5'), -5).on('ping', recorder('p0b'), 0).on('ping', recorder('p5'), 5);
    const event = new Recorded();
    expect(d.dispatch('ping', event)).toBe(event);
    expect(event.calls).toEqual(['p5', 'p0a', 'p0b', 'm5']);
    expect(d.getListeners('ping').map((l) => [l.name, l.priority])).toEqual([
      ['p5', 5],
      ['p0a', 0],
      ['p0b', 0],
      ['m5', -5],
    ]);
  });

  it('rejects a non-integer priority', () => {
    const d = new EventDispatcher<Events>();
    expect(() => d.on('ping', recorder('x'), 1.5)).toThrow(/must be an integer/);
  });

  it('keeps events apart and reports listeners and priorities', () => {
    const d = new EventDispatcher<Events>();
    const a = recorder('a');
    d.on('ping', a, 3);
    expect(d.hasListeners('ping')).toBe(true);
    expect(d.hasListeners('pong')).toBe(false);
    expect(d.hasListeners()).toBe(true);
    expect(d.getListenerPriority('ping', a)).toBe(3);
    expect(d.getListenerPriority('pong', a)).toBeNull();
    const event = new Recorded();
    d.dispatch('pong', event);
    expect(event.calls).toEqual([]);
    expect([...d.getAllListeners().keys()]).toEqual(['ping']);
  });

  it('uses the listener option name over the function name', () => {
    const d = new EventDispatcher<Events>();
    d.on('ping', () => {}, 0, { name: 'RouterListener::onKernelRequest' });
    d.on('ping', () => {});
    expect(d.getListeners('ping').map((l) => l.name)).toEqual(['RouterListener::onKernelRequest', 'anonymous']);
  });
});

describe('EventDispatcher propagation stop', () => {
  it('lets the stopping listener finish and skips every later one', () => {
    const d = new EventDispatcher<Events>();
    d.on('ping', recorder('first'), 10);
    d.on(
      'ping',
      recorder('stopper', (e) => {
        e.stopPropagation();
        e.calls.push('stopper-after-stop');
      }),
      5,
    );
    d.on('ping', recorder('same-priority-later'), 5);
    d.on('ping', recorder('lower'), 0);
    const event = new Recorded();
    d.dispatch('ping', event);
    expect(event.calls).toEqual(['first', 'stopper', 'stopper-after-stop']);
  });

  it('calls no listener at all for an event stopped before dispatch', () => {
    const d = new EventDispatcher<Events>();
    d.on('ping', recorder('a'));
    const event = new Recorded();
    event.stopPropagation();
    d.dispatch('ping', event);
    expect(event.calls).toEqual([]);
  });

  it('dispatches plain objects that are not stoppable', () => {
    const d = new EventDispatcher<{ plain: { hits: number } }>();
    d.on('plain', (e) => void e.hits++);
    d.on('plain', (e) => void e.hits++);
    const event = { hits: 0 };
    d.dispatch('plain', event);
    expect(event.hits).toBe(2);
  });
});

describe('EventDispatcher changes during a dispatch', () => {
  it('does not call a listener added during the dispatch, whatever its priority, until the next dispatch', () => {
    const d = new EventDispatcher<Events>();
    const late = recorder('late');
    d.on(
      'ping',
      recorder('adder', () => d.on('ping', late, 100)),
    );
    d.on('ping', recorder('after'), -1);
    const first = new Recorded();
    d.dispatch('ping', first);
    expect(first.calls).toEqual(['adder', 'after']);
    const second = new Recorded();
    d.dispatch('ping', second);
    expect(second.calls).toEqual(['late', 'adder', 'after']);
  });

  it('still calls a listener removed during the dispatch, and not from the next dispatch on', () => {
    const d = new EventDispatcher<Events>();
    const victim = recorder('victim');
    d.on(
      'ping',
      recorder('remover', () => d.removeListener('ping', victim)),
      10,
    );
    d.on('ping', victim, 0);
    const first = new Recorded();
    d.dispatch('ping', first);
    expect(first.calls).toEqual(['remover', 'victim']);
    const second = new Recorded();
    d.dispatch('ping', second);
    expect(second.calls).toEqual(['remover']);
  });

  it('lets a listener remove itself', () => {
    const d = new EventDispatcher<Events>();
    const once: (e: Recorded) => void = (e) => {
      e.calls.push('once');
      d.off('ping', once);
    };
    d.on('ping', once);
    const a = new Recorded();
    const b = new Recorded();
    d.dispatch('ping', a);
    d.dispatch('ping', b);
    expect([a.calls, b.calls]).toEqual([['once'], []]);
    expect(d.hasListeners('ping')).toBe(false);
  });
});

describe('EventDispatcher identity', () => {
  it('calls a function registered twice twice, and one removal removes both', () => {
    const d = new EventDispatcher<Events>();
    const twice = recorder('twice');
    d.on('ping', twice, 1).on('ping', twice, -1).on('ping', recorder('other'));
    const event = new Recorded();
    d.dispatch('ping', event);
    expect(event.calls).toEqual(['twice', 'other', 'twice']);
    d.removeListener('ping', twice);
    const after = new Recorded();
    d.dispatch('ping', after);
    expect(after.calls).toEqual(['other']);
  });

  it('ignores removal of an unknown listener or event', () => {
    const d = new EventDispatcher<Events>();
    d.on('ping', recorder('kept'));
    d.removeListener('pong', recorder('x'));
    d.removeListener('ping', recorder('kept'));
    const event = new Recorded();
    d.dispatch('ping', event);
    expect(event.calls).toEqual(['kept']);
  });
});

describe('EventDispatcher subscribers', () => {
  class AuditSubscriber implements EventSubscriber<Events> {
    readonly seen: string[] = [];
    readonly onPing = (e: Recorded) => void e.calls.push('audit-ping');
    readonly onPingLate = (e: Recorded) => void e.calls.push('audit-ping-late');
    readonly onPong = (e: Recorded) => void e.calls.push('audit-pong');

    getSubscribedEvents(): SubscribedEvents<Events> {
      return {
        ping: [
          [this.onPing, 10],
          [this.onPingLate, -10],
        ],
        pong: [this.onPong, 0],
      };
    }
  }

  it('registers each declared listener with its priority, and removes exactly those', () => {
    const d = new EventDispatcher<Events>();
    const subscriber = new AuditSubscriber();
    d.on('ping', recorder('own'));
    d.addSubscriber(subscriber);
    const ping = new Recorded();
    d.dispatch('ping', ping);
    expect(ping.calls).toEqual(['audit-ping', 'own', 'audit-ping-late']);
    expect(d.getListeners('ping').map((listener) => listener.name)).toEqual([
      'AuditSubscriber.onPing',
      'own',
      'AuditSubscriber.onPingLate',
    ]);
    const pong = new Recorded();
    d.dispatch('pong', pong);
    expect(pong.calls).toEqual(['audit-pong']);

    d.removeSubscriber(subscriber);
    const after = new Recorded();
    d.dispatch('ping', after);
    expect(after.calls).toEqual(['own']);
    expect(d.hasListeners('pong')).toBe(false);
  });

  /** Declares prototype methods that read private state: each call must see its own instance. */
  class CountingSubscriber implements EventSubscriber<Events> {
    static readonly PING_PRIORITY = 5;
    readonly #label: string;
    constructor(label: string) {
      this.#label = label;
    }
    getSubscribedEvents(): SubscribedEvents<Events> {
      return { ping: [this.onPing, CountingSubscriber.PING_PRIORITY], pong: [this.onPong, 0] };
    }
    onPing(event: Recorded): void {
      event.calls.push(`${this.#label}:ping`);
    }
    onPong(event: Recorded): void {
      event.calls.push(`${this.#label}:pong`);
    }
  }

  it('calls declared methods on their own instance, names them Class.method, and removes one instance without the other', () => {
    const d = new EventDispatcher<Events>();
    const first = new CountingSubscriber('first');
    const second = new CountingSubscriber('second');
    d.addSubscriber(first).addSubscriber(second);
    expect(d.getListeners('ping').map(({ name, priority }) => `${name} ${priority}`)).toEqual([
      'CountingSubscriber.onPing 5',
      'CountingSubscriber.onPing 5',
    ]);
    const ping = new Recorded();
    d.dispatch('ping', ping);
    expect(ping.calls).toEqual(['first:ping', 'second:ping']);

    d.removeSubscriber(first);
    const after = new Recorded();
    d.dispatch('ping', after);
    d.dispatch('pong', after);
    expect(after.calls).toEqual(['second:ping', 'second:pong']);
    d.removeSubscriber(second);
    expect(d.getAllListeners().size).toBe(0);
  });
});

describe('EventDispatcher async listeners', () => {
  it('awaits a listener that returns a promise before calling the next', async () => {
    const d = new EventDispatcher<Events>();
    d.on('ping', recorder('sync-1'), 3);
    d.on(
      'ping',
      async (e: Recorded) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        e.calls.push('async-2');
      },
      2,
    );
    d.on('ping', recorder('sync-3'), 1);
    d.on(
      'ping',
      async (e: Recorded) => {
        await Promise.resolve();
        e.calls.push('async-4');
      },
      0,
    );
    const event = new Recorded();
    const pending = d.dispatch('ping', event);
    expect(pending).toBeInstanceOf(Promise);
    expect(event.calls).toEqual(['sync-1']);
    expect(await pending).toBe(event);
    expect(event.calls).toEqual(['sync-1', 'async-2', 'sync-3', 'async-4']);
  });

  it('honours a propagation stop made by an async listener', async () => {
    const d = new EventDispatcher<Events>();
    d.on(
      'ping',
      async (e: Recorded) => {
        await Promise.resolve();
        e.stopPropagation();
      },
      1,
    );
    d.on('ping', recorder('never'));
    const event = new Recorded();
    await d.dispatch('ping', event);
    expect(event.calls).toEqual([]);
  });

  it('rejects with the error of a rejecting listener and calls no later listener', async () => {
    const d = new EventDispatcher<Events>();
    d.on('ping', () => Promise.reject(new Error('boom')), 1);
    d.on('ping', recorder('never'));
    const event = new Recorded();
    await expect(d.dispatch('ping', event)).rejects.toThrow('boom');
    expect(event.calls).toEqual([]);
  });

  it('throws synchronously the error of a throwing synchronous listener', () => {
    const d = new EventDispatcher<Events>();
    d.on('ping', () => {
      throw new Error('sync boom');
    });
    expect(() => d.dispatch('ping', new Recorded())).toThrow('sync boom');
  });
});

describe('TraceableEventDispatcher', () => {
  it('records listeners called with durations, the stopper, and those skipped', async () => {
    const traces: DispatchTrace[] = [];
    const events: object[] = [];
    const d = new TraceableEventDispatcher(new EventDispatcher<Events>(), (trace, event) => {
      traces.push(trace);
      events.push(event);
    });
    d.on('ping', recorder('a'), 10);
    d.on(
      'ping',
      async (e: Recorded) => {
        await Promise.resolve();
        e.stopPropagation();
      },
      5,
      { name: 'asyncStopper' },
    );
    d.on('ping', recorder('skipped-1'), 0);
    d.on('ping', recorder('skipped-2'), -3);
    const event = new Recorded();
    await d.dispatch('ping', event);
    expect(traces).toHaveLength(1);
    const [trace] = traces;
    expect(trace!.eventName).toBe('ping');
    expect(events).toEqual([event]);
    expect(trace!.called.map((c) => [c.name, c.priority])).toEqual([
      ['a', 10],
      ['asyncStopper', 5],
    ]);
    expect(trace!.called.every((c) => c.durationMs >= 0)).toBe(true);
    expect(trace!.stoppedBy).toBe('asyncStopper');
    expect(trace!.notCalled).toEqual([
      { name: 'skipped-1', priority: 0 },
      { name: 'skipped-2', priority: -3 },
    ]);
  });

  it('records a throwing listener and the error, and rethrows', () => {
    const traces: DispatchTrace[] = [];
    const d = new TraceableEventDispatcher(new EventDispatcher<Events>(), (trace) => traces.push(trace));
    const boom = new Error('boom');
    d.on(
      'ping',
      () => {
        throw boom;
      },
      0,
      { name: 'thrower' },
    );
    d.on('ping', recorder('never'), -1);
    expect(() => d.dispatch('ping', new Recorded())).toThrow(boom);
    expect(traces[0]!.called).toMatchObject([{ name: 'thrower', threw: true }]);
    expect(traces[0]!.error).toBe(boom);
  });

  it('stays synchronous when every listener is; the decorated dispatcher, used directly, records nothing', () => {
    const traces: DispatchTrace[] = [];
    const inner = new EventDispatcher<Events>();
    const d = new TraceableEventDispatcher(inner, (trace) => traces.push(trace));
    d.on('ping', recorder('a'));
    const event = new Recorded();
    expect(d.dispatch('ping', event)).toBe(event);
    expect(inner.getListeners('ping').map((listener) => listener.name)).toEqual(['a']);
    inner.dispatch('ping', new Recorded());
    expect(traces).toHaveLength(1);
  });

  it('records a dispatch nobody listens to', () => {
    const traces: DispatchTrace[] = [];
    const d = new TraceableEventDispatcher(new EventDispatcher<Events>(), (trace) => traces.push(trace));
    expect(d.isObserved('pong')).toBe(true);
    d.dispatch('pong', new Recorded());
    expect(traces.map((trace) => [trace.eventName, trace.called.length])).toEqual([['pong', 0]]);
  });
});

describe('EventDispatcher main-request-only and sub-request-only listeners', () => {
  class Handled extends Event {
    readonly calls: string[] = [];
    constructor(readonly requestType: RequestType) {
      super();
    }
  }
  type RequestEvents = { step: Handled };

  class StepListener implements EventSubscriber<RequestEvents> {
    getSubscribedEvents(): SubscribedEvents<RequestEvents> {
      return {
        step: [
          [this.always, 10],
          [this.mainOnly, 0, { mainRequestOnly: true }],
          [this.subOnly, -5, { subRequestOnly: true }],
        ],
      };
    }
    always(event: Handled): void {
      event.calls.push('always');
    }
    mainOnly(event: Handled): void {
      event.calls.push('main only');
    }
    subOnly(event: Handled): void {
      event.calls.push('sub only');
    }
  }

  it('skips listeners declared mainRequestOnly for a sub-request and subRequestOnly for a main request, in every dispatcher', () => {
    const dispatcher = new EventDispatcher<RequestEvents>().addSubscriber(new StepListener());
    dispatcher.on('step', (event) => void event.calls.push('on, main only'), -10, { mainRequestOnly: true });
    const traces: DispatchTrace[] = [];
    const traced = new TraceableEventDispatcher(dispatcher, (trace) => traces.push(trace));
    const callsThroughChannel: string[][] = [];
    // The listener tracing channel wraps every call; the same listeners must be called through it.
    const ignore = (): void => {};
    const subscriber = { start: ignore, end: ignore, asyncStart: ignore, asyncEnd: ignore, error: ignore };
    kernelListenerChannel.subscribe(subscriber);
    try {
      const main = new Handled(RequestType.MAIN);
      const sub = new Handled(RequestType.SUB);
      dispatcher.dispatch('step', main);
      dispatcher.dispatch('step', sub);
      callsThroughChannel.push(main.calls, sub.calls);
    } finally {
      kernelListenerChannel.unsubscribe(subscriber);
    }
    expect(callsThroughChannel).toEqual([
      ['always', 'main only', 'on, main only'],
      ['always', 'sub only'],
    ]);
    for (const d of [dispatcher, traced]) {
      const main = new Handled(RequestType.MAIN);
      const sub = new Handled(RequestType.SUB);
      d.dispatch('step', main);
      d.dispatch('step', sub);
      expect(main.calls).toEqual(['always', 'main only', 'on, main only']);
      expect(sub.calls).toEqual(['always', 'sub only']);
    }
    expect(traces.map((trace) => trace.called.map((call) => call.name))).toEqual([
      ['StepListener.always', 'StepListener.mainOnly', 'anonymous'],
      ['StepListener.always', 'StepListener.subOnly'],
    ]);
    expect(dispatcher.getListeners('step').map((l) => [l.name, l.mainRequestOnly, l.subRequestOnly])).toEqual([
      ['StepListener.always', false, false],
      ['StepListener.mainOnly', true, false],
      ['StepListener.subOnly', false, true],
      ['anonymous', true, false],
    ]);
  });

  it('is observed for a request type only when a listener is called for it', () => {
    const d = new EventDispatcher<RequestEvents>();
    d.on('step', () => {}, 0, { subRequestOnly: true });
    expect([d.isObserved('step'), d.isObserved('step', RequestType.MAIN), d.isObserved('step', RequestType.SUB)]).toEqual([
      false,
      false,
      true,
    ]);
    d.on('step', () => {}, 0, { mainRequestOnly: true });
    expect([d.isObserved('step', RequestType.MAIN), d.isObserved('step', RequestType.SUB)]).toEqual([true, true]);
  });

  it('refuses a listener declared both mainRequestOnly and subRequestOnly', () => {
    const d = new EventDispatcher<RequestEvents>();
    expect(() => d.on('step', () => {}, 0, { mainRequestOnly: true, subRequestOnly: true })).toThrow(
      'A listener for "step" cannot be both mainRequestOnly and subRequestOnly.',
    );
  });
});

describe('EventDispatcher.isObserved', () => {
  it('is true with a listener, false once none is left', () => {
    const d = new EventDispatcher<Events>();
    const listener = recorder('a');
    expect(d.isObserved('ping')).toBe(false);
    d.on('ping', listener);
    expect(d.isObserved('ping')).toBe(true);
    d.off('ping', listener);
    expect(d.isObserved('ping')).toBe(false);
  });
});

describe('EventDispatcher types', () => {
  it('gives a kernel.response listener a ResponseEvent without casts', () => {
    const d = new EventDispatcher<KernelEventMap>();
    d.on('kernel.response', (event) => {
      expectTypeOf(event).toEqualTypeOf<ResponseEvent>();
      event.response.headers.set('x-typed', '1');
    });
    // @ts-expect-error an unknown event name is a compile error
    d.on('kernel.nope', () => {});
    expect(d.hasListeners('kernel.response')).toBe(true);
  });
});
