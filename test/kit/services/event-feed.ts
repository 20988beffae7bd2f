import type { ServerSentEvent } from '@switchboard/http-kernel/sse';

/**
 * Events published by a test and the streams that follow them: a stream starts after the id the
 * client last saw (or at the next event), waits for news, and reports when its `finally` ran.
 */
export class EventFeed {
  readonly history: ServerSentEvent[] = [];
  /** How many streams have run their `finally`. */
  stopped = 0;
  #waiters = new Set<() => void>();
  #stopWaiters = new Set<() => void>();

  publish(data: string): void {
    this.history.push({ id: String(this.history.length + 1), event: 'note', data });
    for (const wake of this.#waiters) wake();
    this.#waiters.clear();
  }

  async *follow(lastEventId: string | null, signal: AbortSignal): AsyncGenerator<ServerSentEvent> {
    let next = lastEventId === null ? this.history.length : this.history.findIndex((event) => event.id === lastEventId) + 1;
    try {
      while (!signal.aborted) {
        while (next < this.history.length) yield this.history[next++]!;
        await new Promise<void>((resolve) => {
          this.#waiters.add(resolve);
          signal.addEventListener('abort', () => resolve(), { once: true });
        });
      }
    } finally {
      this.stopped += 1;
      for (const wake of this.#stopWaiters) wake();
    }
  }

  /** Resolves once `count` streams have stopped. */
  async stoppedAtLeast(count: number): Promise<void> {
    while (this.stopped < count) await new Promise<void>((resolve) => this.#stopWaiters.add(resolve));
  }
}

/** A streamed response body read as text, piece by piece. */
export class StreamReader {
  text = '';
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #decoder = new TextDecoder();

  constructor(body: ReadableStream<Uint8Array>) {
    this.#reader = body.getReader();
  }

  /** Reads until the text so far satisfies `done`; rejects if the stream ends first. */
  async until(done: (text: string) => boolean): Promise<string> {
    while (!done(this.text)) {
      const { value, done: ended } = await this.#reader.read();
      if (ended) throw new Error(`The stream ended before the expected text; got: ${JSON.stringify(this.text)}`);
      this.text += this.#decoder.decode(value, { stream: true });
    }
    return this.text;
  }

  /** Reads to the end. */
  async rest(): Promise<string> {
    for (;;) {
      const { value, done } = await this.#reader.read();
      if (done) return this.text;
      this.text += this.#decoder.decode(value, { stream: true });
    }
  }

  cancel(): Promise<void> {
    return this.#reader.cancel();
  }
}

export function occurrences(text: string, part: string): number {
  return text.split(part).length - 1;
}
