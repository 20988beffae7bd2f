import { HttpError } from '@switchboard/http-kernel';
import { LimitedBody, type BodyLimits } from '../request/limited-body.js';

/** The body of a WHATWG `Request`, read lazily under the same limits as a node request. */
export class FetchBody extends LimitedBody {
  readonly #stream: ReadableStream<Uint8Array>;

  constructor(stream: ReadableStream<Uint8Array>, declaredLength: number | undefined, limits: BodyLimits) {
    super(declaredLength, limits);
    this.#stream = stream;
  }

  protected async *receive(deadline: number, timeoutMs: number): AsyncGenerator<Uint8Array> {
    const reader = this.#stream.getReader();
    try {
      for (;;) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new HttpError(408, `The request body was not received within ${timeoutMs} ms.`)),
            Math.max(0, deadline - Date.now()),
          );
        });
        let result: Awaited<ReturnType<typeof reader.read>>;
        try {
          result = await Promise.race([reader.read(), timeout]);
        } finally {
          clearTimeout(timer);
        }
        if (result.done) return;
        yield result.value;
      }
    } finally {
      reader.releaseLock();
    }
  }

  /** Tells the stream's source that the rest will not be read (`receive` has released its reader by then). */
  protected async abandon(): Promise<void> {
    await this.#stream.cancel().catch(() => undefined);
  }
}
