/** A byte window of a body, both ends included (as in `Content-Range`). */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

/** What a ranged body is made of: windows of the source, and bytes written between them. */
export type BodyPiece = ByteRange | Uint8Array;

/**
 * A streamed body whose length is known and whose windows can be read without the rest: the
 * Range listener serves it by asking for the pieces it needs (`FileResponse`'s body is one).
 */
export interface SeekableBody extends AsyncIterable<Uint8Array> {
  /** The length of the whole source, in bytes. */
  readonly size: number;
  /** The same source, read as `pieces` in order; takes over what the source holds (an open handle). */
  withPieces(pieces: readonly BodyPiece[]): SeekableBody;
}

export function isSeekableBody(body: unknown): body is SeekableBody {
  return typeof body === 'object' && body !== null && typeof (body as Partial<SeekableBody>).withPieces === 'function';
}

/**
 * Tells a streamed body that will not be read to let go of what it holds (an open file handle),
 * through its iterator's `return()`, as a `for await` left early would.
 */
export async function releaseBody(body: unknown): Promise<void> {
  if (typeof body !== 'object' || body === null || !(Symbol.asyncIterator in body)) return;
  await (body as AsyncIterable<unknown>)[Symbol.asyncIterator]().return?.();
}
