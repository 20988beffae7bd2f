import type {
  DispatchableEvent,
  DispatchTracer,
  EventMap,
  EventName,
  EventSubscriber,
  Listener,
  ListenerCall,
  ListenerInfo,
  ListenerOptions,
  ListenerSpec,
  RegisteredListener,
} from './types.js';
import { isThenable } from '../internal/is-thenable.js';

interface Entry {
  readonly listener: Listener<never>;
  readonly priority: number;
  readonly name: string;
}

type AnyListener = (event: unknown, eventName: string) => unknown;

const EMPTY: readonly Entry[] = Object.freeze([]);

function stopped(event: DispatchableEvent): boolean {
  return event.propagationStopped === true;
}

/**
 * A typed, prioritised, stoppable event dispatcher.
 *
 * - Higher priority runs first; equal priorities run in registration order.
 * - Before each listener the event's `propagationStopped` is checked.
 * - A dispatch works on the listener list as it was when the dispatch started: listeners added or
 *   removed meanwhile take effect from the next dispatch (the sorted list is replaced, never mutated).
 * - A dispatch is synchronous until a listener returns a promise; only then does it return a promise.
 */
export class EventDispatcher<M extends EventMap = Record<string, DispatchableEvent>> {
  readonly #registrations = new Map<string, Entry[]>();
  readonly #sorted = new Map<string, readonly Entry[]>();
  #tracer: DispatchTracer | null = null;

  addListener<K extends EventName<M>>(
    eventName: K,
    listener: Listener<M[K]>,
    priority = 0,
    options: ListenerOptions = {},
  ): this {
    if (!Number.isInteger(priority)) {
      throw new TypeError(`Listener priority for "${eventName}" must be an integer, got ${String(priority)}.`);
    }
    const entry: Entry = {
      listener: listener as Listener<never>,
      priority,
      name: options.name ?? (listener.name || 'anonymous'),
    };
    const list = this.#registrations.get(eventName);
    if (list === undefined) this.#registrations.set(eventName, [entry]);
    else list.push(entry);
    this.#sorted.delete(eventName);
    return this;
  }

  /** Alias of `addListener`. */
  on<K extends EventName<M>>(eventName: K, listener: Listener<M[K]>, priority = 0, options?: ListenerOptions): this {
    return this.addListener(eventName, listener, priority, options);
  }

  /** Removes every registration of `listener` for `eventName`, whatever its priority. Unknown: no-op. */
  removeListener<K extends EventName<M>>(eventName: K, listener: Listener<M[K]>): this {
    const list = this.#registrations.get(eventName);
    if (list === undefined) return this;
    const kept = list.filter((entry) => entry.listener !== listener);
    if (kept.length === list.length) return this;
    if (kept.length === 0) this.#registrations.delete(eventName);
    else this.#registrations.set(eventName, kept);
    this.#sorted.delete(eventName);
    return this;
  }

  off<K extends EventName<M>>(eventName: K, listener: Listener<M[K]>): this {
    return this.removeListener(eventName, listener);
  }

  addSubscriber(subscriber: EventSubscriber<M>): this {
    this.#eachSubscription(subscriber, (name, spec) =>
      this.addListener(name, spec.listener, spec.priority ?? 0, spec.name === undefined ? {} : { name: spec.name }),
    );
    return this;
  }

  removeSubscriber(subscriber: EventSubscriber<M>): this {
    this.#eachSubscription(subscriber, (name, spec) => this.removeListener(name, spec.listener));
    return this;
  }

  /** Listeners of one event in call order, with their priorities and names. */
  getListeners<K extends EventName<M>>(eventName: K): ReadonlyArray<RegisteredListener<M[K]>> {
    return this.#listFor(eventName) as ReadonlyArray<RegisteredListener<M[K]>>;
  }

  /** Every event that has listeners, each with its listeners in call order. */
  getAllListeners(): Map<string, ReadonlyArray<RegisteredListener<unknown>>> {
    const all = new Map<string, ReadonlyArray<RegisteredListener<unknown>>>();
    for (const name of this.#registrations.keys()) {
      all.set(name, this.#listFor(name) as ReadonlyArray<RegisteredListener<unknown>>);
    }
    return all;
  }

  getListenerPriority<K extends EventName<M>>(eventName: K, listener: Listener<M[K]>): number | null {
    const found = this.#registrations.get(eventName)?.find((entry) => entry.listener === listener);
    return found === undefined ? null : found.priority;
  }

  hasListeners(eventName?: EventName<M>): boolean {
    if (eventName === undefined) return this.#registrations.size > 0;
    return this.#registrations.has(eventName);
  }

  /**
   * Whether a dispatch of `eventName` would be seen by anyone: a listener, or the tracer. When it
   * would not, a caller may skip building the event at all.
   */
  isObserved(eventName: EventName<M>): boolean {
    return this.#tracer !== null || this.#listFor(eventName).length > 0;
  }

  /**
   * Records every dispatch (listeners called with their durations, listeners skipped by a
   * propagation stop). `null` turns tracing off; when off, dispatch pays one null check.
   */
  setTracer(tracer: DispatchTracer | null): void {
    this.#tracer = tracer;
  }

  get tracing(): boolean {
    return this.#tracer !== null;
  }

  /**
   * Calls the listeners of `eventName` with `event`. Returns `undefined` when every listener was
   * synchronous, otherwise a promise that settles after the last listener.
   */
  dispatch<K extends EventName<M>>(eventName: K, event: M[K]): void | Promise<void> {
    const entries = this.#listFor(eventName);
    if (this.#tracer !== null) return this.#dispatchTraced(eventName, event, entries, this.#tracer);
    const subject = event as DispatchableEvent;
    for (let i = 0; i < entries.length; i++) {
      if (subject.propagationStopped === true) return;
      const result = (entries[i]!.listener as AnyListener)(event, eventName);
      if (isThenable<void>(result)) return this.#continueAsync(result, entries, i + 1, eventName, event);
    }
  }

  async #continueAsync(
    pending: PromiseLike<void>,
    entries: readonly Entry[],
    from: number,
    eventName: string,
    event: unknown,
  ): Promise<void> {
    await pending;
    const subject = event as DispatchableEvent;
    for (let i = from; i < entries.length; i++) {
      if (subject.propagationStopped === true) return;
      const result = (entries[i]!.listener as AnyListener)(event, eventName);
      if (isThenable(result)) await result;
    }
  }

  #dispatchTraced(
    eventName: string,
    event: unknown,
    entries: readonly Entry[],
    tracer: DispatchTracer,
  ): void | Promise<void> {
    const startedAt = performance.now();
    const called: ListenerCall[] = [];
    const subject = event as DispatchableEvent;
    let index = 0;
    let stoppedBy: string | null = null;

    const finish = (error?: unknown): void => {
      const notCalled: ListenerInfo[] = [];
      if (stopped(subject)) {
        for (let j = index; j < entries.length; j++) notCalled.push(info(entries[j]!));
      }
      tracer({
        eventName,
        event: event as object,
        startedAt,
        durationMs: performance.now() - startedAt,
        called,
        notCalled,
        stoppedBy,
        ...(error === undefined ? {} : { error }),
      });
    };
    const afterCall = (entry: Entry, callStart: number, threw: boolean): void => {
      called.push({ ...info(entry), durationMs: performance.now() - callStart, ...(threw ? { threw } : {}) });
      if (stoppedBy === null && stopped(subject)) stoppedBy = entry.name;
    };

    const runFrom = (): void | Promise<void> => {
      for (; index < entries.length; index++) {
        if (stopped(subject)) return finish();
        const entry = entries[index]!;
        const callStart = performance.now();
        let result: unknown;
        try {
          result = (entry.listener as AnyListener)(event, eventName);
        } catch (error) {
          afterCall(entry, callStart, true);
          index++;
          finish(error);
          throw error;
        }
        if (isThenable(result)) {
          index++;
          return Promise.resolve(result).then(
            () => {
              afterCall(entry, callStart, false);
              return runFrom();
            },
            (error: unknown) => {
              afterCall(entry, callStart, true);
              finish(error);
              throw error;
            },
          );
        }
        afterCall(entry, callStart, false);
      }
      return finish();
    };
    return runFrom();
  }

  #listFor(eventName: string): readonly Entry[] {
    const cached = this.#sorted.get(eventName);
    if (cached !== undefined) return cached;
    const list = this.#registrations.get(eventName);
    // An event nobody listens to is remembered too: the kernel asks about those on every request.
    // Array.prototype.sort is stable: equal priorities keep registration order.
    const sorted = list === undefined ? EMPTY : Object.freeze([...list].sort((a, b) => b.priority - a.priority));
    this.#sorted.set(eventName, sorted);
    return sorted;
  }

  #eachSubscription(
    subscriber: EventSubscriber<M>,
    apply: (name: EventName<M>, spec: ListenerSpec<M[EventName<M>]>) => void,
  ): void {
    type Spec = ListenerSpec<M[EventName<M>]>;
    const events = subscriber.getSubscribedEvents() as Record<string, Spec | Spec[]>;
    for (const name of Object.keys(events)) {
      const specs = events[name]!;
      for (const spec of Array.isArray(specs) ? specs : [specs]) apply(name as EventName<M>, spec);
    }
  }
}

function info(entry: Entry): ListenerInfo {
  return { name: entry.name, priority: entry.priority };
}
