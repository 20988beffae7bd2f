import { type LogRecord, Request, type Response, type ResponseEvent } from '@switchboard/http-kernel';
import { EventStreamResponse, type EventStreamOutcome } from '@switchboard/http-kernel/sse';
import type { DispatchTrace } from '@switchboard/http-kernel/tracing';
import { memoryReading, type MemoryData } from './memory-reading.js';

/** Status and headers of a response as they were when its request finished. */
export interface ResponseSnapshot {
  readonly status: number;
  /** Names and values alternating, a name's values next to each other (`HeaderBag.toRawList()`). */
  readonly headers: readonly string[];
}

/** Characters a profile takes besides its URL, traces and log records: its panels' fixed parts. */
const BASE_BYTES = 4096;
/** Characters one dispatch takes in the events and time panels, with its few listeners. */
const DISPATCH_BYTES = 600;
/** Characters one log record takes besides its message: level, channel, time, a small context. */
const LOG_RECORD_BYTES = 300;

/**
 * What the profiler holds about one request (main or sub): references only (the dispatcher's
 * traces, log records, the request), so recording costs a few pushes. At kernel.terminate the
 * recording is closed and kept; the collectors turn it into plain profile data when the profile
 * is first read.
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
  /** Cut to their number when the recording is closed: a storage keeps hundreds of recordings. */
  traces: DispatchTrace[] = [];
  readonly logs: LogRecord[] = [];
  /** The profile token, once kernel.response gave it one. */
  token: string | null = null;
  responseEvent: ResponseEvent | null = null;
  snapshot: ResponseSnapshot | null = null;
  /** The error a kernel.exception dispatch for this request carried. */
  exception: unknown = undefined;
  /** How the kernel handled the request, from the first dispatch made for it. */
  requestType: 'main' | 'sub' = 'main';
  /** For an event stream: the events sent and how it ended; taken at kernel.terminate. */
  eventStream: EventStreamOutcome | null | undefined = undefined;
  /** The process's memory when the recording was closed. */
  memory: MemoryData | null = null;

  constructor(
    /** The request; at close, a copy of its facts without its transport (see `close`). */
    public request: Request,
    /** The request this one is a sub-request of (the one below it on the stack). */
    readonly parent: RequestRecording | null,
  ) {}

  get response(): Response | null {
    return this.responseEvent?.response ?? null;
  }

  /**
   * At kernel.terminate: takes what the collectors need of the response (the response itself is
   * not kept, nor its body) and the process's memory.
   */
  close(): void {
    const response = this.response;
    if (this.snapshot === null) this.takeSnapshot();
    if (response instanceof EventStreamResponse) this.eventStream = response.outcome;
    this.responseEvent = null;
    if (this.traces.length > 0) this.traces = this.traces.slice();
    this.request = withoutTransport(this.request);
    this.memory = memoryReading();
  }

  /**
   * About how many characters of JSON this recording makes as a profile, counted without making it:
   * what bounds the memory a storage spends on recordings kept until read. A request body still held
   * counts whole.
   */
  estimatedBytes(): number {
    let bytes = BASE_BYTES + 3 * this.request.uri.length + DISPATCH_BYTES * this.traces.length;
    for (const record of this.logs) bytes += LOG_RECORD_BYTES + record.message.length;
    const declared = Number(this.request.headers.get('content-length') ?? 0);
    return bytes + (Number.isFinite(declared) ? declared : 0);
  }

  /** Takes status and headers now: later listeners of the parent request may change the same object. */
  takeSnapshot(): void {
    const response = this.response;
    if (response === null) return;
    this.snapshot = {
      status: response.status,
      headers: response.headers.toRawList(),
    };
  }
}

/**
 * A copy of `request`'s facts (method, URL, headers, client, attributes, locale) without its body,
 * connection and signal. A storage keeps hundreds of recordings: the request itself would keep
 * node's request, response and their buffers alive with each, which costs the garbage collector
 * more than all the recording's own data.
 */
function withoutTransport(request: Request): Request {
  return new Request({
    method: request.method,
    scheme: request.scheme,
    host: request.host,
    port: request.port,
    path: request.rawPath,
    query: request.queryString,
    headers: request.headers,
    clientIp: request.clientIp,
    protocolVersion: request.protocolVersion,
    attributes: request.attributes.entries(),
    defaultLocale: request.locale,
    fromTrustedProxy: request.fromTrustedProxy,
  });
}

/** The recordings of one main request and its sub-requests, in the order they started. */
export class ChainRecording {
  /** Cut to their number when the chain is closed. */
  requests: RequestRecording[] = [];
  /** Each request's recording, once the chain has a sub-request; a chain of one looks at `requests[0]`. */
  #byRequest: Map<Request, RequestRecording> | null = null;
  /** Set at kernel.terminate: later dispatches (the terminate dispatch itself) are not recorded. */
  closed = false;

  get(request: Request): RequestRecording | undefined {
    if (this.#byRequest !== null) return this.#byRequest.get(request);
    const only = this.requests[0];
    return only !== undefined && only.request === request ? only : undefined;
  }

  add(recording: RequestRecording): RequestRecording {
    if (this.requests.length === 0) {
      // A list of one holds one: most chains have no sub-request.
      this.requests = [recording];
      return recording;
    }
    this.#byRequest ??= new Map(this.requests.map((existing) => [existing.request, existing]));
    this.#byRequest.set(recording.request, recording);
    this.requests.push(recording);
    return recording;
  }

  /** At kernel.terminate: later dispatches are not recorded; each recording keeps what it needs and lets the response go. */
  close(): void {
    this.closed = true;
    for (const recording of this.requests) recording.close();
    if (this.requests.length > 1) this.requests = this.requests.slice();
    // Looked up only while the chain records (a closed recording holds a copy of its request).
    this.#byRequest = null;
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
