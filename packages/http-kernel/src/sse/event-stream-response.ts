import { ServerShutdownError } from '../http/cancellation.js';
import type { Request } from '../http/request.js';
import { Response } from '../http/response.js';
import { formatRetryHint, formatServerSentEvent, HEARTBEAT_COMMENT, lastEventIdOf, type ServerSentEvent } from './server-sent-event.js';

/** What an event generator function receives. */
export interface EventStreamContext {
  /** The id of the last event the client received (its `Last-Event-ID`), or `null`. */
  readonly lastEventId: string | null;
  /** Fires when the stream is over: the client left, the server is shutting down, or `expiresAt` came. */
  readonly signal: AbortSignal;
}

/** The events to send: an async iterable, or a function (an async generator) that makes one. */
export type EventStreamSource = AsyncIterable<ServerSentEvent> | ((context: EventStreamContext) => AsyncIterable<ServerSentEvent>);

export interface EventStreamOptions {
  /** Milliseconds between comment lines sent while no event comes; 0 sends none. Default 15 000. */
  heartbeatIntervalMs?: number;
  /** The reconnection delay (ms) the client is told when the server shuts down the stream. Default 1 000. */
  shutdownRetryMs?: number;
  /**
   * When the stream ends on its own: typically when the credentials that opened it expire, so that
   * a revoked or expired token stops receiving events. The client gets a last `retry:` hint
   * (`expiryRetryMs`) and reconnects, with fresh credentials. Default: never.
   */
  expiresAt?: Date;
  /** The reconnection delay (ms) the client is told when the stream reaches `expiresAt`. Default 1 000. */
  expiryRetryMs?: number;
}

/**
 * How an event stream ended: its source finished, the client left, the server shut down, it
 * reached its `expiresAt`, or the source threw.
 */
export type EventStreamEnding = 'completed' | 'client-gone' | 'shutdown' | 'expired' | 'error';

export interface EventStreamOutcome {
  readonly eventsSent: number;
  readonly ending: EventStreamEnding;
}

const DEFAULT_HEARTBEAT_MS = 15_000;
const DEFAULT_SHUTDOWN_RETRY_MS = 1_000;
const DEFAULT_EXPIRY_RETRY_MS = 1_000;
/** The longest delay a timer takes (about 24.8 days); a later expiry is waited for in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

type Step = { kind: 'event'; result: IteratorResult<ServerSentEvent> } | { kind: 'heartbeat' } | { kind: 'aborted' } | { kind: 'expired' };

/**
 * A `text/event-stream` response: each event of `source` is framed and sent as it comes, with a
 * comment every `heartbeatIntervalMs` while none does. When the client leaves, the source is stopped
 * (`return()`, so a generator's `finally` runs). When the server shuts down, or the stream reaches
 * its `expiresAt`, the client gets a last `retry:` hint and the stream ends, so it reconnects
 * (elsewhere, or with fresh credentials). `finished` settles with the
 * number of events sent and how the stream ended.
 */
export class EventStreamResponse extends Response {
  /** Settles when the stream is over (at once for HEAD, which gets the headers only). */
  readonly finished: Promise<EventStreamOutcome>;
  #outcome: EventStreamOutcome | null = null;
  #settle!: (outcome: EventStreamOutcome) => void;

  constructor(request: Request, source: EventStreamSource, options: EventStreamOptions = {}) {
    super(null, 200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      // Tells nginx-style proxies not to hold events back in a buffer.
      'x-accel-buffering': 'no',
    });
    this.finished = new Promise((resolve) => (this.#settle = resolve));
    if (request.method === 'HEAD') {
      this.#end(0, 'completed');
      return;
    }
    this.body = this.#frames(request, source, options);
  }

  /** The outcome once the stream is over, `null` while it runs. */
  get outcome(): EventStreamOutcome | null {
    return this.#outcome;
  }

  #end(eventsSent: number, ending: EventStreamEnding): void {
    if (this.#outcome !== null) return;
    this.#outcome = { eventsSent, ending };
    this.#settle(this.#outcome);
  }

  async *#frames(request: Request, source: EventStreamSource, options: EventStreamOptions): AsyncGenerator<string> {
    const signal = request.signal;
    const heartbeatMs = options.heartbeatIntervalMs ?? DEFAULT_HEARTBEAT_MS;
    const expiry = options.expiresAt === undefined ? null : new StreamExpiry(options.expiresAt.getTime(), signal);
    const events =
      typeof source === 'function'
        ? source({ lastEventId: lastEventIdOf(request.headers.get('last-event-id')), signal: expiry?.signal ?? signal })
        : source;
    const iterator = events[Symbol.asyncIterator]();
    const aborted = new Promise<Step>((resolve) => {
      if (signal.aborted) resolve({ kind: 'aborted' });
      else signal.addEventListener('abort', () => resolve({ kind: 'aborted' }), { once: true });
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    let sent = 0;
    // Ending here without a verdict means the consumer stopped reading: the client is gone.
    let ending: EventStreamEnding = 'client-gone';
    try {
      // Sent first so that the headers go out and the client sees the stream open at once.
      yield HEARTBEAT_COMMENT;
      // Kept across heartbeats: the source is asked for its next event once at a time.
      let next: Promise<Step> | null = null;
      for (;;) {
        next ??= iterator.next().then((result) => ({ kind: 'event', result }));
        const waits = [next, aborted];
        if (expiry !== null) waits.push(expiry.reached);
        if (heartbeatMs > 0) waits.push(new Promise<Step>((resolve) => (timer = setTimeout(resolve, heartbeatMs, { kind: 'heartbeat' }))));
        const step = await Promise.race(waits);
        clearTimeout(timer);
        if (step.kind === 'aborted') {
          ending = signal.reason instanceof ServerShutdownError ? 'shutdown' : 'client-gone';
          if (ending === 'shutdown') yield formatRetryHint(options.shutdownRetryMs ?? DEFAULT_SHUTDOWN_RETRY_MS);
          return;
        }
        if (step.kind === 'expired') {
          ending = 'expired';
          yield formatRetryHint(options.expiryRetryMs ?? DEFAULT_EXPIRY_RETRY_MS);
          return;
        }
        if (step.kind === 'heartbeat') {
          yield HEARTBEAT_COMMENT;
          continue;
        }
        next = null;
        if (step.result.done === true) {
          ending = 'completed';
          return;
        }
        const frame = formatServerSentEvent(step.result.value);
        yield frame;
        sent += 1;
      }
    } catch (error) {
      ending = 'error';
      throw error;
    } finally {
      clearTimeout(timer);
      // The source's signal fires too, so a source waiting on it ends.
      expiry?.end();
      if (ending !== 'completed') {
        // Not awaited: a source busy elsewhere finishes its step first, and the response must not wait for it.
        iterator.return?.().catch(() => {});
      }
      this.#end(sent, ending);
    }
  }
}

/**
 * The end of a stream at `time` (epoch ms), however far away: `reached` settles then, and
 * `signal` (the source's) fires when the request's does or when the stream ends.
 */
class StreamExpiry {
  readonly reached: Promise<Step>;
  readonly #controller = new AbortController();
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(time: number, requestSignal: AbortSignal) {
    this.reached = new Promise((resolve) => this.#waitUntil(time, resolve));
    if (requestSignal.aborted) this.#controller.abort(requestSignal.reason);
    else requestSignal.addEventListener('abort', () => this.#controller.abort(requestSignal.reason), { once: true });
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  #waitUntil(time: number, resolve: (step: Step) => void): void {
    const left = time - Date.now();
    if (left <= 0) resolve({ kind: 'expired' });
    else this.#timer = setTimeout(() => this.#waitUntil(time, resolve), Math.min(left, MAX_TIMER_MS));
  }

  end(): void {
    clearTimeout(this.#timer);
    this.#controller.abort(new DOMException('The event stream ended.', 'AbortError'));
  }
}
