import { PayloadTooLargeHttpError, type RequestBody } from '@switchboard/http-kernel';
import { joinBytes } from '@switchboard/http-kernel/internal';

export interface BodyLimits {
  /** Largest body accepted, in bytes; past it reading stops with a 413. */
  readonly maxBytes: number;
  /** Time allowed to receive the whole body once reading starts, in ms; past it a 408. */
  readonly timeoutMs: number;
}

const EMPTY = new Uint8Array(0);

/**
 * A request body read only when someone asks, once, under size and time limits: a declared
 * `Content-Length` over the limit fails before a byte is read, a body that grows past it fails at
 * that chunk, and one that does not arrive in time fails with 408. Subclasses supply the chunks
 * (`receive`) and what to do with the unread rest after a failure (`abandon`).
 */
export abstract class LimitedBody implements RequestBody {
  readonly #declaredLength: number | undefined;
  readonly #limits: BodyLimits;
  #started = false;
  #bytes: Promise<Uint8Array> | undefined;

  constructor(declaredLength: number | undefined, limits: BodyLimits) {
    this.#declaredLength = declaredLength;
    this.#limits = limits;
  }

  /** Someone asked for the body (as bytes, text or a stream). */
  protected get readStarted(): boolean {
    return this.#started;
  }

  bytes(): Promise<Uint8Array> {
    return (this.#bytes ??= this.#collect());
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(await this.bytes());
  }

  stream(): AsyncIterable<Uint8Array> {
    const collected = this.#bytes;
    return collected === undefined ? this.#chunks() : replay(collected);
  }

  /** The raw chunks until the end; rejects with 408 past `deadline` (epoch ms) or 400 if the client goes away. */
  protected abstract receive(deadline: number, timeoutMs: number): AsyncIterable<Uint8Array>;

  /** Reading stopped before the end of the body (limit, timeout, client gone). */
  protected abstract abandon(): Promise<void> | void;

  async #collect(): Promise<Uint8Array> {
    const chunks: Uint8Array[] = [];
    let length = 0;
    for await (const chunk of this.#chunks()) {
      chunks.push(chunk);
      length += chunk.byteLength;
    }
    if (chunks.length === 0) return EMPTY;
    return joinBytes(chunks, length);
  }

  async *#chunks(): AsyncGenerator<Uint8Array> {
    if (this.#started) throw new Error('The request body can be consumed once; it was already read as a stream.');
    this.#started = true;
    const { maxBytes, timeoutMs } = this.#limits;
    if (this.#declaredLength !== undefined && this.#declaredLength > maxBytes) {
      await this.abandon();
      throw tooLarge(maxBytes);
    }
    let received = 0;
    let ended = false;
    try {
      for await (const chunk of this.receive(Date.now() + timeoutMs, timeoutMs)) {
        received += chunk.byteLength;
        if (received > maxBytes) throw tooLarge(maxBytes);
        yield chunk;
      }
      ended = true;
    } finally {
      // A failure, or a reader that stopped before the end (a multipart limit crossed): the rest
      // is nobody's, so the adapter takes it in within its bounds and closes the connection.
      if (!ended) await this.abandon();
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
