import type { RequestType } from '../contract/request-type.js';
import type { OwnedDeclarations, RouteController, RouteDeclaration } from '../declaration/route-declaration.js';
import type { MaybePromise } from '../internal/maybe-promise.js';

/** Any object may be dispatched; one with `propagationStopped === true` reaches no further listener. */
export interface DispatchableEvent {
  readonly propagationStopped?: boolean;
  /**
   * Set when a listener ended the dispatch with an error without throwing it
   * (`RequestEvent.failWith`). Dispatchers that trace listeners report it as thrown by that listener.
   */
  readonly failure?: ListenerFailure | null;
  /**
   * `RequestType.SUB` for an event of a sub-request, whose dispatches skip the listeners declared
   * `mainRequestOnly`; any other value (or none), a main request's, whose dispatches skip those
   * declared `subRequestOnly`.
   */
  readonly requestType?: RequestType;
}

/** The error a listener ended a dispatch with (see `DispatchableEvent.failure`). */
export interface ListenerFailure {
  /** What the listener failed with: an error, or a `DeferredHttpError` describing one. */
  readonly error: unknown;
}

/** A map from event name to the event class dispatched under it, e.g. `KernelEventMap`. */
export type EventMap = object;

export type EventName<M extends EventMap> = Extract<keyof M, string>;

/**
 * A listener may return a promise; the dispatch then awaits it before the next listener.
 * A listener returning anything else is treated as synchronous.
 */
export type Listener<E> = (event: E, eventName: string) => void | PromiseLike<void>;

/**
 * What a listener declares about itself besides its priority, for the dispatcher to act on
 * instead of the listener checking it on every call. One object, so that more facts can join.
 */
export interface ListenerFacts {
  /**
   * Only the main request's events reach it: the dispatcher skips it for events of a sub-request
   * (`requestType === RequestType.SUB`), such as the error page's. Default false.
   */
  readonly mainRequestOnly?: boolean;
  /**
   * Only sub-requests' events reach it (a listener that puts the parent request's context back
   * when a sub-request ends): the dispatcher skips it for every other event. Default false; not
   * together with `mainRequestOnly`.
   */
  readonly subRequestOnly?: boolean;
}

export interface ListenerOptions extends ListenerFacts {
  /** Shown in traces and the profiler's events panel; defaults to the function's name. */
  name?: string;
}

export interface RegisteredListener<E> {
  readonly listener: Listener<E>;
  readonly priority: number;
  readonly name: string;
  readonly mainRequestOnly: boolean;
  readonly subRequestOnly: boolean;
}

/**
 * One listener of a subscriber: one of its methods (or function-valued fields), its priority, and
 * optionally what it declares about itself, e.g.
 * `[this.onKernelResponse, CorsListener.RESPONSE_PRIORITY, { mainRequestOnly: true }]`. The
 * dispatcher calls it with the subscriber as `this`, and names it after the class and the method
 * (`CorsListener.onKernelResponse`).
 */
export type ListenerDeclaration<E> =
  | readonly [listener: Listener<E>, priority: number]
  | readonly [listener: Listener<E>, priority: number, facts: ListenerFacts];

/** Several listeners declared by one object, each with its priority. */
export interface EventSubscriber<M extends EventMap> {
  /**
   * Read by `addSubscriber` and again by `removeSubscriber`: declare the subscriber's own methods
   * (the same functions on every call), not closures built here, or they could not be removed.
   */
  getSubscribedEvents(): SubscribedEvents<M>;
  /**
   * The route defaults and controller-argument options this subscriber acts on. A route that
   * declares one is refused unless a registered subscriber owns it (`HttpKernel.checkDeclarations`).
   */
  getOwnedDeclarations?(): OwnedDeclarations;
  /** What the routes this subscriber serves declare (the router listener gives its routes'). */
  getRouteDeclarations?(): Iterable<RouteDeclaration>;
  /**
   * The controllers of the routes this subscriber serves, with what each route gives them; the
   * kernel refuses to serve a controller argument that nothing provides.
   */
  getRouteControllers?(): Iterable<RouteController>;
}

/** Per event name: one declaration, or several. */
export type SubscribedEvents<M extends EventMap> = {
  [K in EventName<M>]?: ListenerDeclaration<M[K]> | ReadonlyArray<ListenerDeclaration<M[K]>>;
};

/**
 * What the kernel and the listeners' owners need of a dispatcher: `EventDispatcher` itself, or a
 * decorator of it such as `TraceableEventDispatcher`.
 */
export interface EventDispatcherInterface<M extends EventMap> {
  addListener<K extends EventName<M>>(eventName: K, listener: Listener<M[K]>, priority?: number, options?: ListenerOptions): this;
  /** Alias of `addListener`. */
  on<K extends EventName<M>>(eventName: K, listener: Listener<M[K]>, priority?: number, options?: ListenerOptions): this;
  removeListener<K extends EventName<M>>(eventName: K, listener: Listener<M[K]>): this;
  /** Alias of `removeListener`. */
  off<K extends EventName<M>>(eventName: K, listener: Listener<M[K]>): this;
  addSubscriber(subscriber: EventSubscriber<M>): this;
  removeSubscriber(subscriber: EventSubscriber<M>): this;
  /** The subscribers added and not removed, in the order they were added. */
  getSubscribers(): ReadonlySet<EventSubscriber<M>>;
  getListeners<K extends EventName<M>>(eventName: K): ReadonlyArray<RegisteredListener<M[K]>>;
  getAllListeners(): Map<string, ReadonlyArray<RegisteredListener<unknown>>>;
  getListenerPriority<K extends EventName<M>>(eventName: K, listener: Listener<M[K]>): number | null;
  hasListeners(eventName?: EventName<M>): boolean;
  /**
   * Whether a dispatch of `eventName` for a request of `requestType` (default main) would be seen
   * at all; when not, a caller may skip building the event.
   */
  isObserved(eventName: EventName<M>, requestType?: RequestType): boolean;
  /**
   * Calls the listeners of `eventName` with `event`, in priority order, until one stops
   * propagation. Returns the event, or a promise of it when a listener returned a promise.
   */
  dispatch<K extends EventName<M>>(eventName: K, event: M[K]): MaybePromise<M[K]>;
}

/** A listener as the dispatcher calls it, its event's type erased (not exported from the package). */
export type AnyListener = (event: unknown, eventName: string) => unknown;
