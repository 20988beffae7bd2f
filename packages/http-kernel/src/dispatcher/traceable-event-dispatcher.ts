import { fromThenable, type MaybePromise } from '../internal/maybe-promise.js';
import { kernelListenerChannel } from '../tracing/tracing-channels.js';
import { tracedListener } from '../tracing/traced-listener.js';
import { listenersFor } from './event-dispatcher.js';
import { thrownIfFailed } from './failed-event.js';
import type {
  AnyListener,
  DispatchableEvent,
  EventDispatcherInterface,
  EventMap,
  EventName,
  EventSubscriber,
  Listener,
  ListenerOptions,
  RegisteredListener,
} from './types.js';

/** What a tracer receives for each dispatch. */
export interface DispatchTrace {
  readonly eventName: string;
  /** `performance.now()` at the start of the dispatch. */
  readonly startedAt: number;
  readonly durationMs: number;
  readonly called: ReadonlyArray<ListenerCall>;
  /** Listeners not called because propagation was stopped. */
  readonly notCalled: ReadonlyArray<ListenerInfo>;
  /** Name of the listener that stopped propagation, if one did. */
  readonly stoppedBy: string | null;
  /** The error a listener threw or rejected with; the dispatch ended there. */
  readonly error?: unknown;
}

export interface ListenerInfo {
  readonly name: string;
  readonly priority: number;
}

export interface ListenerCall extends ListenerInfo {
  readonly durationMs: number;
  readonly threw?: boolean;
}

/**
 * Receives each dispatch when it ends, with the event dispatched. A trace holds no reference to the
 * event, so keeping traces never keeps a request's objects (its response, its body) alive.
 */
export type DispatchTracer = (trace: DispatchTrace, event: object) => void;

/**
 * A dispatcher that records every dispatch of the one it decorates: the listeners called, each
 * with its duration, the one that stopped propagation and those it skipped, and the error that
 * ended the dispatch. Each record goes to `tracer` when the dispatch ends (nested dispatches
 * first). Listeners are registered on, and read from, the decorated dispatcher; the kernel is
 * given this one. Every event counts as observed, so the kernel builds and dispatches even those
 * nobody listens to, and the trace shows them.
 */
export class TraceableEventDispatcher<M extends EventMap = Record<string, DispatchableEvent>> implements EventDispatcherInterface<M> {
  readonly #inner: EventDispatcherInterface<M>;
  readonly #tracer: DispatchTracer;

  constructor(inner: EventDispatcherInterface<M>, tracer: DispatchTracer) {
    this.#inner = inner;
    this.#tracer = tracer;
  }

  addListener<K extends EventName<M>>(eventName: K, listener: Listener<M[K]>, priority?: number, options?: ListenerOptions): this {
    this.#inner.addListener(eventName, listener, priority, options);
    return this;
  }

  on<K extends EventName<M>>(eventName: K, listener: Listener<M[K]>, priority?: number, options?: ListenerOptions): this {
    return this.addListener(eventName, listener, priority, options);
  }

  removeListener<K extends EventName<M>>(eventName: K, listener: Listener<M[K]>): this {
    this.#inner.removeListener(eventName, listener);
    return this;
  }

  off<K extends EventName<M>>(eventName: K, listener: Listener<M[K]>): this {
    return this.removeListener(eventName, listener);
  }

  addSubscriber(subscriber: EventSubscriber<M>): this {
    this.#inner.addSubscriber(subscriber);
    return this;
  }

  removeSubscriber(subscriber: EventSubscriber<M>): this {
    this.#inner.removeSubscriber(subscriber);
    return this;
  }

  getSubscribers(): ReadonlySet<EventSubscriber<M>> {
    return this.#inner.getSubscribers();
  }

  getListeners<K extends EventName<M>>(eventName: K): ReadonlyArray<RegisteredListener<M[K]>> {
    return this.#inner.getListeners(eventName);
  }

  getAllListeners(): Map<string, ReadonlyArray<RegisteredListener<unknown>>> {
    return this.#inner.getAllListeners();
  }

  getListenerPriority<K extends EventName<M>>(eventName: K, listener: Listener<M[K]>): number | null {
    return this.#inner.getListenerPriority(eventName, listener);
  }

  hasListeners(eventName?: EventName<M>): boolean {
    return this.#inner.hasListeners(eventName);
  }

  /** Always: a dispatch nobody listens to is still recorded. */
  isObserved(_eventName: EventName<M>): boolean {
    return true;
  }

  dispatch<K extends EventName<M>>(eventName: K, event: M[K]): MaybePromise<M[K]> {
    const listeners = listenersFor(this.#inner.getListeners(eventName) as ReadonlyArray<RegisteredListener<unknown>>, event);
    return new DispatchRecording(eventName, listeners, this.#tracer, kernelListenerChannel.hasSubscribers).run(event, 0);
  }
}

/** The durations of a dispatch without listeners: nothing is ever written to it. */
const NO_DURATIONS: number[] = [];

/**
 * One dispatch being run and recorded: the listeners in call order and, per call, one number (its
 * duration). The `ListenerCall` objects of the trace are made when someone reads them.
 */
class DispatchRecording implements DispatchTrace {
  readonly startedAt = performance.now();
  durationMs = 0;
  stoppedBy: string | null = null;
  error?: unknown;
  readonly #listeners: ReadonlyArray<RegisteredListener<unknown>>;
  readonly #tracer: DispatchTracer;
  /** Whether each call is also published on the listener tracing channel. */
  readonly #published: boolean;
  /**
   * Duration of each listener called, in call order, the first `#calledCount` slots: one slot per
   * listener from the start, so the list never grows (a profiler keeps traces for hundreds of requests).
   */
  readonly #durations: number[];
  #calledCount = 0;
  /** Index of the listener that threw or failed the event; -1 when none did. */
  #threwAt = -1;
  /** When the last listener ended (or the dispatch started): the next one starts then, one clock read per call. */
  #lastMark = this.startedAt;
  #called: ListenerCall[] | null = null;

  constructor(
    readonly eventName: string,
    listeners: ReadonlyArray<RegisteredListener<unknown>>,
    tracer: DispatchTracer,
    published: boolean,
  ) {
    this.#listeners = listeners;
    this.#tracer = tracer;
    this.#published = published;
    this.#durations = listeners.length === 0 ? NO_DURATIONS : new Array<number>(listeners.length);
  }

  get called(): ReadonlyArray<ListenerCall> {
    if (this.#called === null) {
      const called: ListenerCall[] = [];
      for (let index = 0; index < this.#calledCount; index++) {
        const { name, priority } = this.#listeners[index]!;
        const durationMs = this.#durations[index]!;
        called.push(index === this.#threwAt ? { name, priority, durationMs, threw: true } : { name, priority, durationMs });
      }
      this.#called = called;
    }
    return this.#called;
  }

  /** Listeners not called because propagation was stopped (empty when a listener threw). */
  get notCalled(): ReadonlyArray<ListenerInfo> {
    if (this.stoppedBy === null) return [];
    return this.#listeners.slice(this.#calledCount).map(({ name, priority }) => ({ name, priority }));
  }

  /**
   * Calls the listeners from `from` on until one stops propagation, timing each until it returns
   * or, when it returns a promise, until that settles. Synchronous until a listener returns a
   * promise. A listener that fails its event (`RequestEvent.failWith`) is recorded as one that threw.
   */
  run<E>(event: E, from: number): MaybePromise<E> {
    for (let index = from; index < this.#listeners.length; index++) {
      if ((event as DispatchableEvent).propagationStopped === true) break;
      let result: unknown;
      try {
        result = fromThenable(this.#call(this.#listeners[index]!, event));
        if (!(result instanceof Promise)) thrownIfFailed(event, result);
      } catch (error) {
        return this.#failed(event, index, error);
      }
      if (result instanceof Promise) return this.#resumeAfter(result, event, index);
      this.#ended(event, index);
    }
    this.#finish(event);
    return event;
  }

  #call(registered: RegisteredListener<unknown>, event: unknown): unknown {
    if (!this.#published) return registered.listener(event as never, this.eventName);
    return tracedListener(registered.name, registered.priority, registered.listener as AnyListener)(event, this.eventName);
  }

  /** The rest of the dispatch once listener `index`'s promise settles. */
  #resumeAfter<E>(pending: Promise<unknown>, event: E, index: number): Promise<E> {
    return pending.then(
      (result) => {
        try {
          thrownIfFailed(event, result);
        } catch (error) {
          return this.#failed(event, index, error);
        }
        this.#ended(event, index);
        return this.run(event, index + 1);
      },
      (error: unknown) => this.#failed(event, index, error),
    );
  }

  /** Records the duration of the listener that just ended, from the previous mark. */
  #mark(): void {
    const now = performance.now();
    this.#durations[this.#calledCount++] = now - this.#lastMark;
    this.#lastMark = now;
  }

  #ended(event: unknown, index: number): void {
    this.#mark();
    // One that failed its event stopped it as a throw ends a dispatch, which this does not count.
    const stopped = event as DispatchableEvent;
    if (this.stoppedBy === null && stopped.propagationStopped === true && (stopped.failure === undefined || stopped.failure === null)) {
      this.stoppedBy = this.#listeners[index]!.name;
    }
  }

  /** Records listener `index` as the one that threw, ends the dispatch, and throws `error` on. */
  #failed(event: unknown, index: number, error: unknown): never {
    this.#mark();
    this.#threwAt = index;
    this.error = error;
    this.#finish(event);
    throw error;
  }

  #finish(event: unknown): void {
    this.durationMs = performance.now() - this.startedAt;
    this.#tracer(this, event as object);
  }
}
