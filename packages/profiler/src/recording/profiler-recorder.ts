import { AsyncLocalStorage } from 'node:async_hooks';
import { KernelEvent, RequestType, TerminateEvent, type LogRecord, type Request, type RequestStack } from '@switchboard/http-kernel';
import type { DispatchTrace } from '@switchboard/http-kernel/tracing';
import { ChainRecording, RequestRecording } from './request-recording.js';

/** Route default / request attribute that turns profiling off for a request chain (the profiler's own pages). */
export const PROFILE_ATTRIBUTE = '_profile';

declare module '@switchboard/http-kernel' {
  interface RequestAttributes {
    /** `false` on a route's defaults: requests to it are not profiled (the /_profiler pages). */
    _profile?: boolean;
  }
}

/**
 * Receives what happens during requests — the dispatcher's traces, log records — and files it
 * under the request it belongs to. State lives per request chain, keyed by the chain's
 * RequestStack in a WeakMap: concurrent requests never share it, and it goes away with them.
 */
export class ProfilerRecorder {
  readonly #chains = new WeakMap<RequestStack, ChainRecording>();
  /**
   * The request chain a log call belongs to, carried along its async calls. A long-lived resource
   * created during a request (a pooled connection, a timer) inherits this context and keeps the
   * stack alive; that costs little, because a saved chain releases what it recorded. (A WeakRef
   * here would keep every stack alive until the current microtask checkpoint ends instead.)
   */
  readonly #logContext = new AsyncLocalStorage<RequestStack>();
  /**
   * Whether a `ProfilingLogger` files records here. Until one does, no log call can be filed, so
   * no context is entered: the first one turns on Node's async hooks, which every request then pays.
   */
  #logsFiled = false;

  /** The tracer of the kernel's `TraceableEventDispatcher` (see `registerProfiler`). */
  recordTrace(trace: DispatchTrace, event: object): void {
    if (!(event instanceof KernelEvent) || event instanceof TerminateEvent) return;
    const recording = this.recordingOf(event.request, true);
    if (recording === null) return;
    if (recording.traces.length === 0) recording.requestType = event.requestType === RequestType.SUB ? 'sub' : 'main';
    recording.traces.push(trace);
    if (trace.startedAt < recording.startedAt) recording.startedAt = trace.startedAt;
    if (trace.eventName === 'kernel.exception') recording.exception ??= (event as { throwable?: unknown }).throwable;
    if (trace.eventName === 'kernel.finish_request') recording.finishedAt = trace.startedAt + trace.durationMs;
  }

  /**
   * Makes log calls from here on (in this async context) count for `request`'s chain. Called at
   * the start of the main request; the current request of the chain decides main or sub.
   */
  enterLogContext(request: Request): void {
    if (this.#logsFiled && request.requestStack !== null) this.#logContext.enterWith(request.requestStack);
  }

  /** Called by each `ProfilingLogger` made for this recorder: requests from now on carry the log context. */
  fileLogs(): void {
    this.#logsFiled = true;
  }

  /** Files a log record under the request being handled in the current async context, if any. */
  recordLog(record: LogRecord): void {
    const stack = this.#logContext.getStore();
    const current = stack?.getCurrentRequest();
    if (current === null || current === undefined) return;
    this.recordingOf(current, true)?.logs.push(record);
  }

  /**
   * The recording of `request`, created on first use when `create` is set. `null` when its chain
   * is not profiled (a profiler page), already saved, or the request is not on a stack.
   */
  recordingOf(request: Request, create = false): RequestRecording | null {
    const chain = this.chainOf(request, create);
    if (chain === null || chain.closed) return null;
    const existing = chain.get(request);
    if (existing !== undefined) return existing;
    if (!create) return null;
    const stack = request.requestStack!;
    const parentRequest = stack.getCurrentRequest() === request ? stack.getParentRequest() : null;
    const parent = parentRequest === null ? null : (chain.get(parentRequest) ?? null);
    return chain.add(new RequestRecording(request, parent));
  }

  chainOf(request: Request, create = false): ChainRecording | null {
    const stack = request.requestStack;
    if (stack === null || isUnprofiled(request, stack)) return null;
    let chain = this.#chains.get(stack) ?? null;
    if (chain === null && create) {
      chain = new ChainRecording();
      this.#chains.set(stack, chain);
    }
    return chain;
  }
}

function isUnprofiled(request: Request, stack: RequestStack): boolean {
  if (request.attributes.get(PROFILE_ATTRIBUTE) === false) return true;
  return stack.getMainRequest()?.attributes.get(PROFILE_ATTRIBUTE) === false;
}
