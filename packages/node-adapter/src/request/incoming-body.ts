import type { Readable } from 'node:stream';
import { BadRequestHttpError, HttpError, PayloadTooLargeHttpError, type RequestBody } from '@switchboard/http-kernel';

export interface BodyLimits {
  /** Largest body accepted, in bytes; past it reading stops with a 413. */
  readonly maxBytes: number;
  /** Time allowed to receive the whole body once reading starts, in ms; past it a 408. */
  readonly timeoutMs: number;
}

const EMPTY = new Uint8Array(0);

/**
 * The body of an incoming node:http or node:http2 request, read only when someone asks.
 * Limits are enforced while reading: a declared `Content-Length` over the limit fails before a
 * byte is read, a body that grows past it fails at that chunk, and a body that does not arrive
 * within the time allowed fails with 408. After such a failure the rest of the body is left
 * unread, so the connection must not be reused (`abandoned`).
 */
export class IncomingBody implements RequestBody {
  readonly #source: Readable;
  readonly #declaredLength: number | undefined;
  readonly #limits: BodyLimits;
  #started = false;
  #bytes: Promise<Uint8Array> | undefined;
  #abandoned = false;

  constructor(source: Readable, declaredLength: number | undefined, limits: BodyLimits) {
    this.#source = source;
    this.#declaredLength = declaredLength;
    this.#limits = limits;
  }

  /** Reading stopped before the end of the body (limit, timeout): close the connection after answering. */
  get abandoned(): boolean {
    return this.#abandoned;
  }

  bytes(): Promise<Uint8Array> {
    return (this.#bytes ??= this.#collect());
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(await this.bytes());
  }

  stream(): AsyncIterable<Uint8Array> {
    const collected = this.#bytes;
    if (collected !== undefined) return replay(collected);
    return this.#chunks();
  }

  async #collect(): Promise<Uint8Array> {
    const chunks: Uint8Array[] = [];
    let length = 0;
    for await (const chunk of this.#chunks()) {
      chunks.push(chunk);
      length += chunk.byteLength;
    }
    if (chunks.length === 0) return EMPTY;
    if (chunks.length === 1) return chunks[0]!;
    return Buffer.concat(chunks, length);
  }

  async *#chunks(): AsyncGenerator<Uint8Array> {
    if (this.#started) throw new Error('The request body can be consumed once; it was already read as a stream.');
    this.#started = true;
    const { maxBytes, timeoutMs } = this.#limits;
    if (this.#declaredLength !== undefined && this.#declaredLength > maxBytes) {
      this.#abandoned = true;
      throw tooLarge(maxBytes);
    }
    const deadline = Date.now() + timeoutMs;
    let received = 0;
    for (;;) {
      let chunk: Buffer | null;
      try {
        chunk = await nextChunk(this.#source, deadline, timeoutMs);
      } catch (error) {
        this.#abandoned = true;
        throw error;
      }
      if (chunk === null) return;
      received += chunk.byteLength;
      if (received > maxBytes) {
        this.#abandoned = true;
        throw tooLarge(maxBytes);
      }
      yield chunk;
    }
  }
}

function tooLarge(maxBytes: number): PayloadTooLargeHttpError {
  return new PayloadTooLargeHttpError(`The request body is larger than the ${maxBytes} bytes allowed.`);
}

async function* replay(bytes: Promise<Uint8Array>): AsyncGenerator<Uint8Array> {
  const all = await bytes;
  if (all.byteLength > 0) yield all;
}

/** The next chunk of `source`, `null` at its end; rejects at the deadline or if the client goes away. */
function nextChunk(source: Readable, deadline: number, timeoutMs: number): Promise<Buffer | null> {
  const ready = source.read() as Buffer | null;
  if (ready !== null) return Promise.resolve(ready);
  if (source.readableEnded) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const settle = (): void => {
      clearTimeout(timer);
      source.off('readable', onReadable);
      source.off('end', onEnd);
      source.off('error', onError);
      source.off('close', onClose);
    };
    const onReadable = (): void => {
      const chunk = source.read() as Buffer | null;
      if (chunk === null) return;
      settle();
      resolve(chunk);
    };
    const onEnd = (): void => {
      settle();
      resolve(null);
    };
    const onError = (error: Error): void => {
      settle();
      reject(new BadRequestHttpError('The request body could not be read.', { cause: error }));
    };
    const onClose = (): void => {
      if (source.readableEnded) return onEnd();
      settle();
      reject(new BadRequestHttpError('The client closed the connection before the request body was complete.'));
    };
    const timer = setTimeout(() => {
      settle();
      reject(new HttpError(408, `The request body was not received within ${timeoutMs} ms.`));
    }, Math.max(0, deadline - Date.now()));
    source.on('readable', onReadable);
    source.once('end', onEnd);
    source.once('error', onError);
    source.once('close', onClose);
  });
}
