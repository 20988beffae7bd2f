import { open, type FileHandle } from 'node:fs/promises';
import type { BodyPiece, SeekableBody } from '../range/seekable-body.js';

/** Where a file response reads from. A `FileHandle` given to it is closed by it. */
export type FileSource = string | FileHandle | Blob;

/** Bytes read from the file per write, so a slow client holds at most this much in memory. */
const CHUNK_BYTES = 64 * 1024;

/**
 * A file's bytes as a streamed body: read chunk by chunk as the writer asks for them (the writer
 * waits for the socket to drain, so a slow client slows the reads), from a path opened at the
 * first read, a `FileHandle`, or a `Blob`. The handle is closed when the body ends, fails, or is
 * abandoned (its iterator's `return()`: the client went away, or the response went out without
 * a body).
 */
export class FileBody implements SeekableBody {
  readonly #source: FileSource;
  readonly #pieces: readonly BodyPiece[];
  readonly size: number;

  constructor(source: FileSource, size: number, pieces?: readonly BodyPiece[]) {
    this.#source = source;
    this.size = size;
    this.#pieces = pieces ?? (size === 0 ? [] : [{ start: 0, end: size - 1 }]);
  }

  withPieces(pieces: readonly BodyPiece[]): FileBody {
    return new FileBody(this.#source, this.size, pieces);
  }

  [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    const source = this.#source;
    const reads = readPieces(source, this.#pieces);
    // A generator never started does not run its `finally`: a given handle is closed here too.
    const closeGiven = async (): Promise<void> => {
      if (typeof source === 'object' && !(source instanceof Blob)) await closeOnce(source);
    };
    return {
      next: () => reads.next(),
      return: async () => {
        try {
          return await reads.return(undefined);
        } finally {
          await closeGiven();
        }
      },
    };
  }
}

async function* readPieces(source: FileSource, pieces: readonly BodyPiece[]): AsyncGenerator<Uint8Array, undefined> {
  if (source instanceof Blob) {
    for (const piece of pieces) {
      if (piece instanceof Uint8Array) yield piece;
      else for await (const chunk of source.slice(piece.start, piece.end + 1).stream()) yield chunk;
    }
    return undefined;
  }
  const handle = typeof source === 'string' ? await open(source, 'r') : source;
  try {
    for (const piece of pieces) {
      if (piece instanceof Uint8Array) {
        yield piece;
        continue;
      }
      for (let position = piece.start; position <= piece.end; ) {
        const length = Math.min(CHUNK_BYTES, piece.end - position + 1);
        const { bytesRead, buffer } = await handle.read(Buffer.allocUnsafe(length), 0, length, position);
        // The file shrank after its response was built: the headers promised more than exists.
        if (bytesRead === 0) throw new Error('The file ended before the length its response announced.');
        position += bytesRead;
        yield buffer.subarray(0, bytesRead);
      }
    }
  } finally {
    await closeOnce(handle);
  }
  return undefined;
}

const closed = new WeakSet<FileHandle>();

async function closeOnce(handle: FileHandle): Promise<void> {
  if (closed.has(handle)) return;
  closed.add(handle);
  await handle.close();
}
