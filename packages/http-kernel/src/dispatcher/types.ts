/** Any object may be dispatched; one with `propagationStopped === true` reaches no further listener. */
export interface DispatchableEvent {
  readonly propagationStopped?: boolean;
}

/** A map from event name to the event class dispatched under it, e.g. `KernelEventMap`. */
export type EventMap = object;

export type EventName<M extends EventMap> = Extract<keyof M, string>;

/**
 * A listener may return a promise; the dispatch then awaits it before the next listener.
 * A listener returning anything else is treated as synchronous.
 */
export type Listener<E> = (event: E, eventName: string) => void | PromiseLike<void>;

export interface ListenerOptions {
  /** Shown in traces and the profiler's events panel; defaults to the function's name. */
  name?: string;
}

export interface RegisteredListener<E> {
  readonly listener: Listener<E>;
  readonly priority: number;
  readonly name: string;
}

/** One listener declaration of a subscriber. */
export interface ListenerSpec<E> {
  listener: Listener<E>;
  priority?: number;
  name?: string;
}

/** Several listeners declared by one object, each with its priority. */
export interface EventSubscriber<M extends EventMap> {
  getSubscribedEvents(): SubscribedEvents<M>;
}

export type SubscribedEvents<M extends EventMap> = {
  [K in EventName<M>]?: ListenerSpec<M[K]> | ReadonlyArray<ListenerSpec<M[K]>>;
};

/** What a tracer receives for each dispatch (see `EventDispatcher.setTracer`). */
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
