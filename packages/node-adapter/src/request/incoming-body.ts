import type { Readable } from 'node:stream';
import { BadRequestHttpError, HttpError } from '@switchboard/http-kernel';
import { LimitedBody, type BodyLimits } from './limited-body.js';

/**
 * The body of an incoming node:http or node:http2 request. After a failure (limit, timeout) the
 * rest of the body is left unread, so the connection must not be reused (`abandoned`).
 */
export class IncomingBody extends LimitedBody {
  readonly #source: Readable;
  /** A length other than 0 was declared, or the body is chunked. */
  readonly #announced: boolean;
  #abandoned = false;

  constructor(source: Readable, declaredLength: number | undefined, limits: BodyLimits) {
    super(declaredLength, limits);
    this.#source = source;
    this.#announced = declaredLength !== 0;
  }

  /** Reading stopped before the end of the body (limit, timeout): close the connection after answering. */
  get abandoned(): boolean {
    return this.#abandoned;
  }

  /**
   * Whether answering with `status` closes the connection because of this body: reading gave up
   * (a limit, a timeout), or nobody read a body that was announced and the answer refuses the
   * request. The node adapter decides the same from the socket; the test client from this.
   */
  closesConnectionWith(status: number): boolean {
    return this.#abandoned || (!this.readStarted && this.#announced && status >= 400);
  }

  /** Someone is reading it and has not given up: its chunks are theirs, not to be discarded. */
  get beingRead(): boolean {
    return this.readStarted && !this.#abandoned;
  }

  protected async *receive(deadline: number, timeoutMs: number): AsyncGenerator<Uint8Array> {
    for (;;) {
      const chunk = await nextChunk(this.#source, deadline, timeoutMs);
      if (chunk === null) return;
      yield chunk;
    }
  }

  protected abandon(): void {
    this.#abandoned = true;
  }
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
    const timer = setTimeout(
      () => {
        settle();
        reject(new HttpError(408, `The request body was not received within ${timeoutMs} ms.`));
      },
      Math.max(0, deadline - Date.now()),
    );
    source.on('readable', onReadable);
    source.once('end', onEnd);
    source.once('error', onError);
    source.once('close', onClose);
  });
}
