import type { DispatchTrace, LogRecord, Request, Response, ResponseEvent } from '@switchboard/http-kernel';

/** Status and headers of a response as they were when its request finished. */
export interface ResponseSnapshot {
  readonly status: number;
  readonly headers: ReadonlyArray<readonly [string, readonly string[]]>;
}

/**
 * What the profiler holds about one request (main or sub) while its chain runs: references only
 * (the dispatcher's traces, log records, the response event), so recording costs a few pushes.
 * Everything is turned into plain profile data at kernel.terminate, after the response was sent.
 */
export class RequestRecording {
  /** `performance.now()` when the first dispatch for this request started. */
  startedAt = Number.POSITIVE_INFINITY;
  /** `performance.now()` when the profile was created (kernel.response −100). */
  respondedAt: number | null = null;
  /** `performance.now()` when its kernel.finish_request dispatch ended. */
  finishedAt: number | null = null;
  /** Epoch ms when the profile was created. */
  time = 0;
  readonly traces: DispatchTrace[] = [];
  readonly logs: LogRecord[] = [];
  /** The profile token, once kernel.response gave it one. */
  token: string | null = null;
  responseEvent: ResponseEvent | null = null;
  snapshot: ResponseSnapshot | null = null;
  /** The error a kernel.exception dispatch for this request carried. */
  exception: unknown = undefined;

  constructor(
    readonly request: Request,
    /** The request this one is a sub-request of (the one below it on the stack). */
    readonly parent: RequestRecording | null,
  ) {}

  get response(): Response | null {
    return this.responseEvent?.response ?? null;
  }

  /** Takes status and headers now: later listeners of the parent request may change the same object. */
  takeSnapshot(): void {
    const response = this.response;
    if (response === null) return;
    this.snapshot = {
      status: response.status,
      headers: [...response.headers].map(([name, values]) => [name, [...values]] as const),
    };
  }
}

/** The recordings of one main request and its sub-requests, in the order they started. */
export class ChainRecording {
  readonly requests: RequestRecording[] = [];
  readonly #byRequest = new Map<Request, RequestRecording>();
  /** Set at kernel.terminate: later dispatches (the terminate dispatch itself) are not recorded. */
  closed = false;

  get(request: Request): RequestRecording | undefined {
    return this.#byRequest.get(request);
  }

  add(recording: RequestRecording): RequestRecording {
    this.#byRequest.set(recording.request, recording);
    this.requests.push(recording);
    return recording;
  }

  /** Closes the chain and drops what it held (traces, log records, requests), once it was saved. */
  release(): void {
    this.closed = true;
    this.requests.length = 0;
    this.#byRequest.clear();
  }

  /** Tokens given in this chain: a token already on a response from this chain came from a sub-request. */
  hasToken(token: string): boolean {
    return this.requests.some((recording) => recording.token === token);
  }

  /** `recording` and the recordings of its sub-requests, at any depth. */
  descendantsOf(recording: RequestRecording): RequestRecording[] {
    const out: RequestRecording[] = [];
    for (const candidate of this.requests) {
      for (let up: RequestRecording | null = candidate; up !== null; up = up.parent) {
        if (up === recording) {
          out.push(candidate);
          break;
        }
      }
    }
    return out;
  }
}
