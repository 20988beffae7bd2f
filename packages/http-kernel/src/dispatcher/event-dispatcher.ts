import { RequestType } from '../contract/request-type.js';
import { andThen, fromThenable, type MaybePromise } from '../internal/maybe-promise.js';
import { kernelListenerChannel } from '../tracing/tracing-channels.js';
import { tracedListener } from '../tracing/traced-listener.js';
import type {
  AnyListener,
  DispatchableEvent,
  EventDispatcherInterface,
  EventMap,
  EventName,
  EventSubscriber,
  Listener,
  ListenerFacts,
  ListenerOptions,
  RegisteredListener,
} from './types.js';
import { subscriberListeners } from './subscriber-listeners.js';

/**
 * The listeners of one event in call order: as registered (frozen, handed out by `getListeners`)
 * and as called (a plain array of functions, never handed out; see docs/decisions.md D3), for a
 * main request (without the listeners declared `subRequestOnly`) and for a sub-request (without
 * those declared `mainRequestOnly`); `traced`, the same calls each published on the listener
 * tracing channel, is built at the first dispatch that has a subscriber and kept until the
 * listeners change.
 */
interface ListenerChain {
  readonly registered: ReadonlyArray<RegisteredListener<never>>;
  readonly calls: readonly AnyListener[];
  readonly subRequestCalls: readonly AnyListener[];
  traced?: readonly AnyListener[];
  subRequestTraced?: readonly AnyListener[];
}

const NO_LISTENERS: ListenerChain = { registered: Object.freeze([]), calls: [], subRequestCalls: [], traced: [], subRequestTraced: [] };

/** Whether `event` belongs to a sub-request (see `DispatchableEvent.requestType`). */
export function isSubRequestEvent(event: unknown): boolean {
  return (event as DispatchableEvent).requestType === RequestType.SUB;
}

/** Whether a dispatch for a main request (`sub` false) or a sub-request calls `entry`. */
function calledFor(entry: Required<ListenerFacts>, sub: boolean): boolean {
  return sub ? !entry.mainRequestOnly : !entry.subRequestOnly;
}

type RegisteredList = ReadonlyArray<RegisteredListener<never>>;

/** A frozen registered list's listeners for main requests, and for sub-requests, each made at its first such dispatch. */
const mainRequestListeners = new WeakMap<RegisteredList, RegisteredList>();
const subRequestListeners = new WeakMap<RegisteredList, RegisteredList>();

/** The listeners a dispatch of `event` calls, in order. */
export function listenersFor<E>(registered: ReadonlyArray<RegisteredListener<E>>, event: unknown): ReadonlyArray<RegisteredListener<E>> {
  const sub = isSubRequestEvent(event);
  const known = sub ? subRequestListeners : mainRequestListeners;
  const cached = known.get(registered as RegisteredList);
  if (cached !== undefined) return cached as ReadonlyArray<RegisteredListener<E>>;
  const filtered = Object.freeze(registered.filter((entry) => calledFor(entry, sub)));
  // A list that may still change is filtered anew each time.
  if (Object.isFrozen(registered)) known.set(registered as RegisteredList, filtered);
  return filtered;
}

/**
 * A typed, prioritised, stoppable event dispatcher.
 *
 * - Higher priority runs first; equal priorities run in registration order.
 * - Before each listener the event's `propagationStopped` is checked.
 * - A dispatch works on the listener list as it was when the dispatch started: listeners added or
 *   removed meanwhile take effect from the next dispatch (each event's chain is rebuilt, never
 *   changed in place).
 * - A dispatch is synchronous until a listener returns a promise; only then does it return a promise.
 */
export class EventDispatcher<M extends EventMap = Record<string, DispatchableEvent>> implements EventDispatcherInterface<M> {
  readonly #registrations = new Map<string, Array<RegisteredListener<never>>>();
  /** Built from the registrations on first dispatch, dropped when they change. */
  readonly #chains = new Map<string, ListenerChain>();
  readonly #subscribers = new Set<EventSubscriber<M>>();

  addListener<K extends EventName<M>>(eventName: K, listener: Listener<M[K]>, priority = 0, options: ListenerOptions = {}): this {
    if (!Number.isInteger(priority)) {
      throw new TypeError(`Listener priority for "${eventName}" must be an integer, got ${String(priority)}.`);
    }
    if (options.mainRequestOnly === true && options.subRequestOnly === true) {
      throw new TypeError(`A listener for "${eventName}" cannot be both mainRequestOnly and subRequestOnly.`);
    }
    const registered: RegisteredListener<never> = {
      listener: listener as Listener<never>,
      priority,
      name: options.name ?? (listener.name || 'anonymous'),
      mainRequestOnly: options.mainRequestOnly ?? false,
      subRequestOnly: options.subRequestOnly ?? false,
    };
    const list = this.#registrations.get(eventName);
    if (list === undefined) this.#registrations.set(eventName, [registered]);
    else list.push(registered);
    this.#chains.delete(eventName);
    return this;
  }

  on<K extends EventName<M>>(eventName: K, listener: Listener<M[K]>, priority = 0, options?: ListenerOptions): this {
    return this.addListener(eventName, listener, priority, options);
  }

  /** Removes every registration of `listener` for `eventName`, whatever its priority. Unknown: no-op. */
  removeListener<K extends EventName<M>>(eventName: K, listener: Listener<M[K]>): this {
    const list = this.#registrations.get(eventName);
    if (list === undefined) return this;
    const kept = list.filter((registered) => registered.listener !== listener);
    if (kept.length === list.length) return this;
    if (kept.length === 0) this.#registrations.delete(eventName);
    else this.#registrations.set(eventName, kept);
    this.#chains.delete(eventName);
    return this;
  }

  off<K extends EventName<M>>(eventName: K, listener: Listener<M[K]>): this {
    return this.removeListener(eventName, listener);
  }

  /** Registers each listener `subscriber` declares, bound to it and named `Class.method`. */
  addSubscriber(subscriber: EventSubscriber<M>): this {
    for (const { eventName, listener, priority, name, facts } of subscriberListeners(subscriber)) {
      this.addListener(eventName as EventName<M>, listener as Listener<M[EventName<M>]>, priority, { ...facts, name });
    }
    this.#subscribers.add(subscriber);
    return this;
  }

  /** Removes the listeners `addSubscriber` registered for `subscriber` (the same bound functions). */
  removeSubscriber(subscriber: EventSubscriber<M>): this {
    for (const { eventName, listener } of subscriberListeners(subscriber))
      this.removeListener(eventName as EventName<M>, listener as Listener<M[EventName<M>]>);
    this.#subscribers.delete(subscriber);
    return this;
  }

  getSubscribers(): ReadonlySet<EventSubscriber<M>> {
    return this.#subscribers;
  }

  /** Listeners of one event in call order, with their priorities and names. */
  getListeners<K extends EventName<M>>(eventName: K): ReadonlyArray<RegisteredListener<M[K]>> {
    return this.#chainOf(eventName).registered as ReadonlyArray<RegisteredListener<M[K]>>;
  }

  /** Every event that has listeners, each with its listeners in call order. */
  getAllListeners(): Map<string, ReadonlyArray<RegisteredListener<unknown>>> {
    const all = new Map<string, ReadonlyArray<RegisteredListener<unknown>>>();
    for (const name of this.#registrations.keys()) {
      all.set(name, this.#chainOf(name).registered as ReadonlyArray<RegisteredListener<unknown>>);
    }
    return all;
  }

  getListenerPriority<K extends EventName<M>>(eventName: K, listener: Listener<M[K]>): number | null {
    const found = this.#registrations.get(eventName)?.find((registered) => registered.listener === listener);
    return found === undefined ? null : found.priority;
  }

  hasListeners(eventName?: EventName<M>): boolean {
    if (eventName === undefined) return this.#registrations.size > 0;
    return this.#registrations.has(eventName);
  }

  /** Whether `eventName` has a listener for such a request: without one, a dispatch could change nothing. */
  isObserved(eventName: EventName<M>, requestType: RequestType = RequestType.MAIN): boolean {
    const chain = this.#chainOf(eventName);
    return (requestType === RequestType.SUB ? chain.subRequestCalls : chain.calls).length > 0;
  }

  dispatch<K extends EventName<M>>(eventName: K, event: M[K]): MaybePromise<M[K]> {
    const chain = this.#chainOf(eventName);
    const sub = isSubRequestEvent(event);
    let listeners: readonly AnyListener[];
    if (!kernelListenerChannel.hasSubscribers) listeners = sub ? chain.subRequestCalls : chain.calls;
    else if (sub) listeners = chain.subRequestTraced ??= tracedCalls(listenersFor(chain.registered, event));
    else listeners = chain.traced ??= tracedCalls(listenersFor(chain.registered, event));
    return callListeners(listeners, eventName, event, 0);
  }

  #chainOf(eventName: string): ListenerChain {
    const cached = this.#chains.get(eventName);
    if (cached !== undefined) return cached;
    const list = this.#registrations.get(eventName);
    // Array.prototype.sort is stable: equal priorities keep registration order.
    const registered = list === undefined ? [] : [...list].sort((a, b) => b.priority - a.priority);
    const chain: ListenerChain =
      registered.length === 0
        ? NO_LISTENERS
        : {
            registered: Object.freeze(registered),
            calls: registered.filter((entry) => calledFor(entry, false)).map((entry) => entry.listener as AnyListener),
            subRequestCalls: registered.filter((entry) => calledFor(entry, true)).map((entry) => entry.listener as AnyListener),
          };
    this.#chains.set(eventName, chain);
    return chain;
  }
}

function tracedCalls(registered: ReadonlyArray<RegisteredListener<never>>): AnyListener[] {
  return registered.map((entry) => tracedListener(entry.name, entry.priority, entry.listener as AnyListener));
}

/**
 * The dispatch loop, shared with `TraceableEventDispatcher`: calls `listeners` from `from` on
 * until one stops propagation. Synchronous until a listener returns a promise; the rest run once
 * it settles. Returns the event, or a promise of it.
 */
export function callListeners<E>(listeners: readonly AnyListener[], eventName: string, event: E, from: number): MaybePromise<E> {
  for (let i = from; i < listeners.length; i++) {
    if ((event as DispatchableEvent).propagationStopped === true) break;
    const result = fromThenable(listeners[i]!(event, eventName));
    if (result instanceof Promise) return resumeAfter(result, listeners, eventName, event, i + 1);
  }
  return event;
}

/** The rest of a dispatch once `pending` settles; written outside the loop (docs/decisions.md D3). */
function resumeAfter<E>(
  pending: Promise<unknown>,
  listeners: readonly AnyListener[],
  eventName: string,
  event: E,
  next: number,
): Promise<E> {
  return andThen(pending, () => callListeners(listeners, eventName, event, next)) as Promise<E>;
}
