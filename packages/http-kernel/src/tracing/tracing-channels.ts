import { tracingChannel, type TracingChannel } from 'node:diagnostics_channel';
import type { Request } from '../http/request.js';
import type { Response } from '../http/response.js';
import { RequestType } from '../contract/request-type.js';
import type { TracedCallContext } from './traced-call.js';

/**
 * The kernel's tracing channels: a public contract, versioned and documented in
 * docs/observability.md. A change that could break a subscriber gets new channel names.
 */
export const TRACING_CHANNELS_VERSION = 1;

/** One traced call per `HttpKernel.handle()` / `handleEagerly()`: main requests and sub-requests. */
export const KERNEL_REQUEST_CHANNEL = 'switchboard.kernel.request';
/** One traced call per listener called by a dispatch. */
export const KERNEL_LISTENER_CHANNEL = 'switchboard.kernel.listener';

/** The context of `switchboard.kernel.request`: the same object at every publication of one request. */
export interface KernelRequestContext extends TracedCallContext<Response> {
  readonly request: Request;
  readonly requestType: RequestType;
  /** `requestType` as a word. */
  readonly type: 'main' | 'sub';
  /** Name of the matched route (request attribute `_route`); null until `kernel.request` routed the request, or when no route matched. */
  readonly route: string | null;
  /** Path template of the matched route (request attribute `_route_path`, e.g. `/items/{id}`); null as `route` is. */
  readonly routePath: string | null;
  /** The error the lifecycle caught and handed to `kernel.exception` (the response then is the error response). */
  readonly exception?: unknown;
}

/** The context of `switchboard.kernel.listener`: one listener call. */
export interface ListenerCallContext extends TracedCallContext<unknown> {
  readonly eventName: string;
  /** The name it was registered under (`ListenerOptions.name`, else the function's name). */
  readonly listenerName: string;
  readonly priority: number;
  /** The event object the listener receives. */
  readonly event: object;
}

export const kernelRequestChannel: TracingChannel<unknown, KernelRequestContext> = tracingChannel(KERNEL_REQUEST_CHANNEL);
export const kernelListenerChannel: TracingChannel<unknown, ListenerCallContext> = tracingChannel(KERNEL_LISTENER_CHANNEL);

/** `KernelRequestContext` as the kernel fills it. */
export class KernelRequestTrace implements KernelRequestContext {
  async = false;
  result?: Response;
  error?: unknown;
  exception?: unknown;

  constructor(
    readonly request: Request,
    readonly requestType: RequestType,
  ) {}

  get type(): 'main' | 'sub' {
    return this.requestType === RequestType.MAIN ? 'main' : 'sub';
  }

  get route(): string | null {
    return this.request.attributes.get('_route') ?? null;
  }

  get routePath(): string | null {
    return this.request.attributes.get('_route_path') ?? null;
  }
}

/** `ListenerCallContext` as the dispatcher fills it. */
export class ListenerCallTrace implements ListenerCallContext {
  async = false;
  result?: unknown;
  error?: unknown;

  constructor(
    readonly eventName: string,
    readonly listenerName: string,
    readonly priority: number,
    readonly event: object,
  ) {}
}
