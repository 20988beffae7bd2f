import { andThen, attempt, fromThenable, type MaybePromise } from '../internal/maybe-promise.js';
import { kernelListenerChannel } from '../tracing/tracing-channels.js';
import { tracedListener } from '../tracing/traced-listener.js';
import { callListeners, listenersFor } from './event-dispatcher.js';
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
  readonly event: object;
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

export type DispatchTracer = (trace: DispatchTrace) => void;

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
    const recording = new DispatchRecording(
      eventName,
      event as object,
      listenersFor(this.#inner.getListeners(eventName) as ReadonlyArray<RegisteredListener<unknown>>, event),
    );
    const published = kernelListenerChannel.hasSubscribers;
    const timed = recording.listeners.map((listener) => {
      const call: AnyListener = (subject, name) => recording.call(listener, subject, name);
      return published ? tracedListener(listener.name, listener.priority, call) : call;
    });
    return attempt(
      () =>
        andThen(callListeners(timed, eventName, event, 0), (dispatched) => {
          this.#tracer(recording.finish());
          return dispatched;
        }),
      (error) => {
        this.#tracer(recording.finish(error));
        throw error;
      },
    );
  }
}

/** One dispatch being recorded. */
class DispatchRecording {
  readonly #startedAt = performance.now();
  readonly #called: ListenerCall[] = [];
  #stoppedBy: string | null = null;

  constructor(
    readonly eventName: string,
    readonly event: object,
    readonly listeners: ReadonlyArray<RegisteredListener<unknown>>,
  ) {}

  /**
   * Calls `listener`, timing it until it returns or, when it returns a promise, until that settles.
   * A listener that fails its event (`RequestEvent.failWith`) is recorded as one that threw.
   */
  call(listener: RegisteredListener<unknown>, event: unknown, eventName: string): unknown {
    const startedAt = performance.now();
    return attempt(
      () =>
        andThen(fromThenable(listener.listener(event, eventName)), (result) => {
          thrownIfFailed(event, result);
          this.#ended(listener, startedAt, false);
          return result;
        }),
      (error) => {
        this.#ended(listener, startedAt, true);
        throw error;
      },
    );
  }

  #ended(listener: RegisteredListener<unknown>, startedAt: number, threw: boolean): void {
    const { name, priority } = listener;
    const durationMs = performance.now() - startedAt;
    this.#called.push(threw ? { name, priority, durationMs, threw } : { name, priority, durationMs });
    if (this.#stoppedBy === null && this.#stopped()) this.#stoppedBy = listener.name;
  }

  /** Whether a listener stopped propagation; one that failed the event stopped it as a throw ends a dispatch, which this does not count. */
  #stopped(): boolean {
    const event = this.event as DispatchableEvent;
    return event.propagationStopped === true && (event.failure === undefined || event.failure === null);
  }

  finish(error?: unknown): DispatchTrace {
    const notCalled = this.#stopped()
      ? this.listeners.slice(this.#called.length).map((listener) => ({ name: listener.name, priority: listener.priority }))
      : [];
    return {
      eventName: this.eventName,
      event: this.event,
      startedAt: this.#startedAt,
      durationMs: performance.now() - this.#startedAt,
      called: this.#called,
      notCalled,
      stoppedBy: this.#stoppedBy,
      ...(error === undefined ? {} : { error }),
    };
  }
}
