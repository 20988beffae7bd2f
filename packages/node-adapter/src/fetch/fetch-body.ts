import { HttpError, PayloadTooLargeHttpError, type RequestBody } from '@switchboard/http-kernel';
import type { BodyLimits } from '../request/incoming-body.js';

const EMPTY = new Uint8Array(0);

/**
 * The body of a WHATWG `Request`, read lazily under the same limits as a node request: a declared
 * `Content-Length` over the limit or a stream growing past it fails with 413, a body not received
 * in time with 408.
 */
export class FetchBody implements RequestBody {
  readonly #stream: ReadableStream<Uint8Array>;
  readonly #declaredLength: number | undefined;
  readonly #limits: BodyLimits;
  #started = false;
  #bytes: Promise<Uint8Array> | undefined;

  constructor(stream: ReadableStream<Uint8Array>, declaredLength: number | undefined, limits: BodyLimits) {
    this.#stream = stream;
    this.#declaredLength = declaredLength;
    this.#limits = limits;
  }

  bytes(): Promise<Uint8Array> {
    return (this.#bytes ??= this.#collect());
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(await this.bytes());
  }

  stream(): AsyncIterable<Uint8Array> {
    const collected = this.#bytes;
    if (collected === undefined) return this.#chunks();
    return (async function* replay() {
      const all = await collected;
      if (all.byteLength > 0) yield all;
    })();
  }

  async #collect(): Promise<Uint8Array> {
    const chunks: Uint8Array[] = [];
    let length = 0;
    for await (const chunk of this.#chunks()) {
      chunks.push(chunk);
      length += chunk.byteLength;
    }
    return chunks.length === 0 ? EMPTY : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length);
  }

  async *#chunks(): AsyncGenerator<Uint8Array> {
    if (this.#started) throw new Error('The request body can be consumed once; it was already read as a stream.');
    this.#started = true;
    const { maxBytes, timeoutMs } = this.#limits;
    if (this.#declaredLength !== undefined && this.#declaredLength > maxBytes) {
      await this.#stream.cancel().catch(() => undefined);
      throw new PayloadTooLargeHttpError(`The request body is larger than the ${maxBytes} bytes allowed.`);
    }
    const reader = this.#stream.getReader();
    const deadline = Date.now() + timeoutMs;
    let received = 0;
    try {
      for (;;) {
        let timer: NodeJS.Timeout | undefined;
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
        received += result.value.byteLength;
        if (received > maxBytes) throw new PayloadTooLargeHttpError(`The request body is larger than the ${maxBytes} bytes allowed.`);
        yield result.value;
      }
    } catch (error) {
      await reader.cancel().catch(() => undefined);
      throw error;
    } finally {
      reader.releaseLock();
    }
  }
}
