import { andThen, fromThenable, type MaybePromise } from '../internal/maybe-promise.js';
import type {
  DispatchableEvent,
  EventDispatcherInterface,
  EventMap,
  EventName,
  EventSubscriber,
  Listener,
  ListenerOptions,
  RegisteredListener,
} from './types.js';
import { subscriberListeners } from './subscriber-listeners.js';

type AnyListener = (event: unknown, eventName: string) => unknown;

/**
 * One registration. `listener` is what callers see and remove; `method` and `receiver` are what a
 * dispatch calls: for a subscriber, its declared method on the subscriber itself (no wrapper
 * function between the loop and the method; docs/decisions.md D9), for a plain listener the
 * function itself.
 */
interface Registration {
  readonly registered: RegisteredListener<never>;
  readonly method: AnyListener;
  readonly receiver: unknown;
}

/**
 * The listeners of one event in call order: as registered (frozen, handed out by `getListeners`)
 * and as called (plain arrays of functions and their receivers, never handed out; see
 * docs/decisions.md D3).
 */
interface ListenerChain {
  readonly registered: ReadonlyArray<RegisteredListener<never>>;
  readonly calls: readonly AnyListener[];
  readonly receivers: readonly unknown[];
}

const NO_LISTENERS: ListenerChain = { registered: Object.freeze([]), calls: [], receivers: [] };

export class EventDispatcher<M extends EventMap = Record<string, DispatchableEvent>> implements EventDispatcherInterface<M> {
  readonly #registrations = new Map<string, Registration[]>();
  /** Built from the registrations on first dispatch, dropped when they change. */
  readonly #chains = new Map<string, ListenerChain>();

  addListener<K extends EventName<M>>(eventName: K, listener: Listener<M[K]>, priority = 0, options: ListenerOptions = {}): this {
    const name = options.name ?? (listener.name || 'anonymous');
    return this.#register(eventName, { listener: listener as Listener<never>, priority, name }, listener as AnyListener, undefined);
  }

  on<K extends EventName<M>>(eventName: K, listener: Listener<M[K]>, priority = 0, options?: ListenerOptions): this {
    return this.addListener(eventName, listener, priority, options);
  }

  /** Removes every registration of `listener` for `eventName`, whatever its priority. Unknown: no-op. */
  removeListener<K extends EventName<M>>(eventName: K, listener: Listener<M[K]>): this {
    const list = this.#registrations.get(eventName);
    if (list === undefined) return this;
    const kept = list.filter((registration) => registration.registered.listener !== listener);
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
    for (const { eventName, listener, method, priority, name } of subscriberListeners(subscriber)) {
      this.#register(eventName, { listener, priority, name }, method as AnyListener, subscriber);
    }
    return this;
  }

  /** Removes the listeners `addSubscriber` registered for `subscriber` (the same bound functions). */
  removeSubscriber(subscriber: EventSubscriber<M>): this {
    for (const { eventName, listener } of subscriberListeners(subscriber))
      this.removeListener(eventName as EventName<M>, listener as Listener<M[EventName<M>]>);
    return this;
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
    const found = this.#registrations.get(eventName)?.find((registration) => registration.registered.listener === listener);
    return found === undefined ? null : found.registered.priority;
  }

  hasListeners(eventName?: EventName<M>): boolean {
    if (eventName === undefined) return this.#registrations.size > 0;
    return this.#registrations.has(eventName);
  }

  /** Whether `eventName` has a listener: without one, a dispatch could change nothing. */
  isObserved(eventName: EventName<M>): boolean {
    return this.#chainOf(eventName).calls.length > 0;
  }

  dispatch<K extends EventName<M>>(eventName: K, event: M[K]): MaybePromise<M[K]> {
    const chain = this.#chainOf(eventName);
    return callListeners(chain.calls, chain.receivers, eventName, event, 0);
  }

  #register(eventName: string, registered: RegisteredListener<never>, method: AnyListener, receiver: unknown): this {
    if (!Number.isInteger(registered.priority)) {
      throw new TypeError(`Listener priority for "${eventName}" must be an integer, got ${String(registered.priority)}.`);
    }
    const registration: Registration = { registered, method, receiver };
    const list = this.#registrations.get(eventName);
    if (list === undefined) this.#registrations.set(eventName, [registration]);
    else list.push(registration);
    this.#chains.delete(eventName);
    return this;
  }

  #chainOf(eventName: string): ListenerChain {
    const cached = this.#chains.get(eventName);
    if (cached !== undefined) return cached;
    const list = this.#registrations.get(eventName);
    // Array.prototype.sort is stable: equal priorities keep registration order.
    const sorted = list === undefined ? [] : [...list].sort((a, b) => b.registered.priority - a.registered.priority);
    const chain: ListenerChain =
      sorted.length === 0
        ? NO_LISTENERS
        : {
            registered: Object.freeze(sorted.map((entry) => entry.registered)),
            calls: sorted.map((entry) => entry.method),
            receivers: sorted.map((entry) => entry.receiver),
          };
    this.#chains.set(eventName, chain);
    return chain;
  }
}

/**
 * The dispatch loop, shared with `TraceableEventDispatcher`: calls `listeners` (each on its
 * receiver, `undefined` for a plain function) from `from` on until one stops propagation.
 * Synchronous until a listener returns a promise; the rest run once it settles. Returns the
 * event, or a promise of it.
 */
export function callListeners<E>(
  listeners: readonly AnyListener[],
  receivers: readonly unknown[],
  eventName: string,
  event: E,
  from: number,
): MaybePromise<E> {
  for (let i = from; i < listeners.length; i++) {
    if ((event as DispatchableEvent).propagationStopped === true) break;
    const result = fromThenable(listeners[i]!.call(receivers[i], event, eventName));
    if (result instanceof Promise) return resumeAfter(result, listeners, receivers, eventName, event, i + 1);
  }
  return event;
}

/** The rest of a dispatch once `pending` settles; written outside the loop (docs/decisions.md D3). */
function resumeAfter<E>(
  pending: Promise<unknown>,
  listeners: readonly AnyListener[],
  receivers: readonly unknown[],
  eventName: string,
  event: E,
  next: number,
): Promise<E> {
  return andThen(pending, () => callListeners(listeners, receivers, eventName, event, next)) as Promise<E>;
}
