import { HttpError, ServiceUnavailableHttpError } from '../error/http-error.js';
import type { EventStreamResponse } from './event-stream-response.js';

export interface EventStreamCapsOptions {
  /** Streams one key (a user, an API key) may have open at once; the next is refused 429. Default 5. */
  perKey?: number;
  /** Streams open at once in all; the next is refused 503. Default 1 000. */
  total?: number;
  /** `Retry-After` of a refusal, seconds. Default 5. */
  retryAfter?: number;
}

export const DEFAULT_EVENT_STREAMS_PER_KEY = 5;
export const DEFAULT_EVENT_STREAMS_TOTAL = 1_000;
const DEFAULT_RETRY_AFTER_SECONDS = 5;

/**
 * Bounds the event streams open at once, per key and in all: each stream holds a connection and
 * whatever its source subscribes to for as long as it runs, so without a bound one client could
 * hold as many as it opens. One instance per kind of stream (or per process).
 */
export class EventStreamCaps {
  readonly #perKey: number;
  readonly #total: number;
  readonly #retryAfter: string;
  readonly #open = new Map<string, number>();
  #openInAll = 0;

  constructor(options: EventStreamCapsOptions = {}) {
    this.#perKey = positiveWhole('perKey', options.perKey ?? DEFAULT_EVENT_STREAMS_PER_KEY);
    this.#total = positiveWhole('total', options.total ?? DEFAULT_EVENT_STREAMS_TOTAL);
    this.#retryAfter = String(positiveWhole('retryAfter', options.retryAfter ?? DEFAULT_RETRY_AFTER_SECONDS));
  }

  /** Streams open now, in all. */
  get openStreams(): number {
    return this.#openInAll;
  }

  /**
   * Opens the stream `start` makes for `key`, counted until it finishes. Past the cap it throws
   * instead: 429 when `key` has `perKey` streams open, 503 when all keys together have `total`.
   */
  open(key: string, start: () => EventStreamResponse): EventStreamResponse {
    const ofKey = this.#open.get(key) ?? 0;
    if (ofKey >= this.#perKey) {
      throw new HttpError(429, `At most ${this.#perKey} event streams may be open at once for one user.`, {
        headers: { 'retry-after': this.#retryAfter },
        logLevel: 'INFO',
      });
    }
    if (this.#openInAll >= this.#total) {
      throw new ServiceUnavailableHttpError('The server has as many event streams open as it takes; retry later.', {
        headers: { 'retry-after': this.#retryAfter },
        logLevel: 'WARNING',
      });
    }
    const response = start();
    this.#open.set(key, ofKey + 1);
    this.#openInAll += 1;
    void response.finished.then(() => this.#release(key));
    return response;
  }

  #release(key: string): void {
    this.#openInAll -= 1;
    const left = (this.#open.get(key) ?? 1) - 1;
    if (left === 0) this.#open.delete(key);
    else this.#open.set(key, left);
  }
}

function positiveWhole(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a whole number ≥ 1, got ${value}.`);
  return value;
}
