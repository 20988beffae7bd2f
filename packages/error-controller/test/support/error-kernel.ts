import {
  DisallowRobotsIndexingListener,
  EventDispatcher,
  MemoryLogger,
  type KernelEvent,
  type KernelEventMap,
  type Request,
  type Response,
} from '@switchboard/http-kernel';
import { TraceableEventDispatcher, type DispatchTrace } from '@switchboard/http-kernel/tracing';
import { testKernel } from '../../../../test/kit/index.js';
import { ErrorListener, type ErrorListenerOptions } from '../../src/index.js';

export { bodyText } from '../../../../test/kit/index.js';

/**
 * The test kit's kernel with the error listener and the response defaults, a memory logger, and a
 * traceable dispatcher recording every dispatch. `setup` adds the listeners a test needs, before
 * the error listener's.
 */
export function errorKernel(
  setup: (dispatcher: EventDispatcher<KernelEventMap>) => void = () => {},
  options: Partial<ErrorListenerOptions> = {},
) {
  const dispatcher = new EventDispatcher<KernelEventMap>();
  const logger = new MemoryLogger();
  const traces: DispatchTrace[] = [];
  /** Whether each trace's dispatch was for the main request (a trace does not hold its event). */
  const forMain = new WeakMap<DispatchTrace, boolean>();
  setup(dispatcher);
  const { kernel } = testKernel({
    dispatcher,
    subscribers: [new ErrorListener({ debug: true, logger, ...options }), new DisallowRobotsIndexingListener()],
    textErrors: false,
    logger,
    decorate: (inner) =>
      new TraceableEventDispatcher(inner, (trace, event) => {
        traces.push(trace);
        forMain.set(trace, (event as KernelEvent).isMainRequest());
      }),
  });
  return {
    dispatcher,
    kernel,
    logger,
    traces,
    /** Events in the order they started (the tracer reports them as they end, nested ones first). */
    eventOrder(): string[] {
      return [...traces].sort((a, b) => a.startedAt - b.startedAt).map((t) => `${forMain.get(t) === true ? 'main' : 'sub'} ${t.eventName}`);
    },
    async handle(request: Request): Promise<Response> {
      traces.length = 0;
      return kernel.handle(request);
    },
  };
}
