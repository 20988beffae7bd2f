import type { EventMap, EventName, EventSubscriber, Listener, ListenerDeclaration, ListenerFacts } from './types.js';

/** One listener of a subscriber as the dispatcher registers it. */
export interface SubscriberListener {
  readonly eventName: string;
  /** The declared function bound to the subscriber: the same function each time it is asked for. */
  readonly listener: Listener<never>;
  readonly priority: number;
  /** `Class.method`, from the subscriber's class and the declared function's name. */
  readonly name: string;
  /** What the declaration says of the listener besides its priority. */
  readonly facts: ListenerFacts;
}

const NO_FACTS: ListenerFacts = Object.freeze({});

type DeclaredFunction = Listener<never>;

/**
 * The bound listeners of each subscriber, by declared function. Kept per subscriber object (and
 * gone with it), so `removeSubscriber` finds the very functions `addSubscriber` registered, on any
 * dispatcher.
 */
const boundBySubscriber = new WeakMap<object, Map<DeclaredFunction, Listener<never>>>();

/** The listeners `subscriber` declares, bound to it, in declaration order. */
export function subscriberListeners<M extends EventMap>(subscriber: EventSubscriber<M>): SubscriberListener[] {
  const events = subscriber.getSubscribedEvents() as Record<string, ListenerDeclaration<never> | ReadonlyArray<ListenerDeclaration<never>>>;
  const className = subscriber.constructor?.name || 'Object';
  const listeners: SubscriberListener[] = [];
  for (const eventName of Object.keys(events) as Array<EventName<M>>) {
    const declared = events[eventName]!;
    const declarations = isDeclaration(declared) ? [declared] : declared;
    for (const [fn, priority, facts = NO_FACTS] of declarations) {
      const name = `${className}.${memberName(subscriber, fn)}`;
      listeners.push({ eventName, listener: boundTo(subscriber, fn), priority, name, facts });
    }
  }
  return listeners;
}

function isDeclaration(value: ListenerDeclaration<never> | ReadonlyArray<ListenerDeclaration<never>>): value is ListenerDeclaration<never> {
  return typeof value[0] === 'function';
}

/**
 * The name under which `subscriber` holds `fn`: a method's, or a function-valued field's (whose
 * function may be nameless once compiled). A function it does not hold goes by its own name.
 */
function memberName(subscriber: object, fn: DeclaredFunction): string {
  if (fn.name !== '' && (subscriber as Record<string, unknown>)[fn.name] === fn) return fn.name;
  for (let holder: object | null = subscriber; holder !== null && holder !== Object.prototype; holder = Object.getPrototypeOf(holder)) {
    for (const key of Object.getOwnPropertyNames(holder)) {
      if (Object.getOwnPropertyDescriptor(holder, key)?.value === fn) return key;
    }
  }
  return fn.name || 'anonymous';
}

function boundTo(subscriber: object, fn: DeclaredFunction): Listener<never> {
  let bound = boundBySubscriber.get(subscriber);
  if (bound === undefined) boundBySubscriber.set(subscriber, (bound = new Map()));
  let listener = bound.get(fn);
  if (listener === undefined) bound.set(fn, (listener = fn.bind(subscriber)));
  return listener;
}
