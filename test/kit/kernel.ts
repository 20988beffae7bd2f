import {
  EventDispatcher,
  HttpKernel,
  MemoryLogger,
  type EventDispatcherInterface,
  type EventSubscriber,
  type HttpKernelOptions,
  type KernelEventMap,
  type Logger,
  type OwnedDeclarations,
  type Request,
  type Response,
} from '@switchboard/http-kernel';
import { RouteTableListener, type RouteTable } from './route-table.js';
import { TextErrorResponder } from './text-error-responder.js';

export interface TestKernelOptions {
  /** A dispatcher that already holds listeners registered before the kit's (their order matters at equal priorities). */
  readonly dispatcher?: EventDispatcher<KernelEventMap>;
  /** Routed by a `RouteTableListener`; leave out when a subscriber routes (the real `RouterListener`). */
  readonly routes?: RouteTable;
  /** The listeners under test and the real parts they work with, registered in this order. */
  readonly subscribers?: ReadonlyArray<EventSubscriber<KernelEventMap>>;
  /**
   * Default true: a `TextErrorResponder` answers errors. False when a subscriber does (the real
   * `ErrorListener`), or when a test wants to see what the kernel does without one.
   */
  readonly textErrors?: boolean;
  /** Every `kernel.terminate` is recorded in `terminated` (default false: a host skips terminate when nothing listens). */
  readonly recordTerminate?: boolean;
  /** The kernel's logger; a `MemoryLogger` when not given. */
  readonly logger?: Logger;
  /** The dispatcher the kernel dispatches through: a decorator of the one given (`TraceableEventDispatcher`, `registerProfiler`). */
  readonly decorate?: (dispatcher: EventDispatcher<KernelEventMap>) => EventDispatcherInterface<KernelEventMap>;
  /** Called before the kernel is made: for listeners added with `dispatcher.on`. */
  readonly setup?: (dispatcher: EventDispatcher<KernelEventMap>) => void;
  readonly controllerResolver?: HttpKernelOptions['controllerResolver'];
  readonly argumentResolver?: HttpKernelOptions['argumentResolver'];
}

export interface TestKernel {
  readonly kernel: HttpKernel;
  /** The undecorated dispatcher: add listeners here. */
  readonly dispatcher: EventDispatcher<KernelEventMap>;
  readonly logger: Logger;
  /** Errors the `TextErrorResponder` answered, in order (empty with `textErrors: false`). */
  readonly errors: unknown[];
  /** Requests that reached the route table, in order (empty without `routes`). */
  readonly handled: Request[];
  /** Every `kernel.terminate`, in order (empty without `recordTerminate`). */
  /** `responseFinished`: what the host said of the response (`TerminateEvent.responseFinished`). */
  readonly terminated: Array<{ request: Request; response: Response; responseFinished: boolean | undefined }>;
}

/** A real `HttpKernel` on a real `EventDispatcher`, wired from `options`; nothing is mocked. */
export function testKernel(options: TestKernelOptions = {}): TestKernel {
  const dispatcher = options.dispatcher ?? new EventDispatcher<KernelEventMap>();
  const logger = options.logger ?? new MemoryLogger();
  const table = options.routes === undefined ? null : new RouteTableListener(options.routes);
  if (table !== null) dispatcher.addSubscriber(table);
  for (const subscriber of options.subscribers ?? []) dispatcher.addSubscriber(subscriber);
  const responder = options.textErrors === false ? null : new TextErrorResponder();
  if (responder !== null) dispatcher.addSubscriber(responder);
  const terminated: TestKernel['terminated'] = [];
  if (options.recordTerminate === true) {
    dispatcher.on(
      'kernel.terminate',
      (event) => void terminated.push({ request: event.request, response: event.response, responseFinished: event.responseFinished }),
    );
  }
  options.setup?.(dispatcher);
  const kernel = new HttpKernel({
    dispatcher: options.decorate?.(dispatcher) ?? dispatcher,
    logger,
    ...(options.controllerResolver === undefined ? {} : { controllerResolver: options.controllerResolver }),
    ...(options.argumentResolver === undefined ? {} : { argumentResolver: options.argumentResolver }),
  });
  return { kernel, dispatcher, logger, errors: responder?.errors ?? [], handled: table?.handled ?? [], terminated };
}

/**
 * A subscriber that owns route declarations and listens to nothing: for tests of one package whose
 * routes carry declarations that another package's listener acts on (only routing under test).
 */
export function declarationOwner(owned: OwnedDeclarations): EventSubscriber<KernelEventMap> {
  return { getSubscribedEvents: () => ({}), getOwnedDeclarations: () => owned };
}

/** A response's body as text, for in-process tests whose controllers answer with strings. */
export function bodyText(response: Response): string {
  if (typeof response.body !== 'string') throw new Error('expected a string body');
  return response.body;
}
