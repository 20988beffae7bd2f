import {
  DefaultCacheControlListener,
  DisallowRobotsIndexingListener,
  EventDispatcher,
  HttpKernel,
  MemoryLogger,
  TraceableEventDispatcher,
  type DispatchTrace,
  type KernelEvent,
  type KernelEventMap,
  type Request,
  type Response,
} from '@switchboard/http-kernel';
import { ErrorListener, type ErrorListenerOptions } from '../../src/index.js';

/** One dispatch as the tracer saw it: `main kernel.request`, `sub kernel.controller`… */
export interface TracedEvent {
  readonly label: string;
  readonly startedAt: number;
}

/**
 * A real kernel with the error listener and the response defaults, a memory logger, and a
 * traceable dispatcher recording every dispatch. `setup` adds the listeners a test needs.
 */
export function errorKernel(
  setup: (dispatcher: EventDispatcher<KernelEventMap>) => void = () => {},
  options: Partial<ErrorListenerOptions> = {},
) {
  const dispatcher = new EventDispatcher<KernelEventMap>();
  const logger = new MemoryLogger();
  const traces: DispatchTrace[] = [];
  setup(dispatcher);
  dispatcher.addSubscriber(new ErrorListener({ debug: true, logger, ...options }));
  dispatcher.addSubscriber(new DefaultCacheControlListener());
  dispatcher.addSubscriber(new DisallowRobotsIndexingListener());
  const kernel = new HttpKernel({ dispatcher: new TraceableEventDispatcher(dispatcher, (trace) => traces.push(trace)), logger });
  return {
    dispatcher,
    kernel,
    logger,
    traces,
    /** Events in the order they started (the tracer reports them as they end, nested ones first). */
    eventOrder(): string[] {
      return [...traces]
        .sort((a, b) => a.startedAt - b.startedAt)
        .map((t) => `${(t.event as KernelEvent).isMainRequest() ? 'main' : 'sub'} ${t.eventName}`);
    },
    async handle(request: Request): Promise<Response> {
      traces.length = 0;
      return kernel.handle(request);
    },
  };
}

export function bodyText(response: Response): string {
  if (typeof response.body !== 'string') throw new Error('expected a string body');
  return response.body;
}
