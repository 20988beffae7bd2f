import { openAsBlob } from 'node:fs';
import { Busboy, type BusboyFileStream, type BusboyInstance } from '@fastify/busboy';
import { BadRequestHttpError, HttpError, PayloadTooLargeHttpError, type RequestBody } from '@switchboard/http-kernel';
import { groupByName } from '../body/decode-payload.js';
import type { MultipartLimits } from './multipart-limits.js';
import type { UploadStorage } from './upload-storage.js';

/**
 * A part's value: a field's text, or a file as a web `File` (held in memory, or backed by its
 * temporary file and read from disk when it is read).
 */
export type MultipartValue = string | File;
/** A multipart body as an object: a name given once maps to its value, a name repeated to the array of its values. */
export type MultipartObject = Record<string, MultipartValue | MultipartValue[]>;

/**
 * Reads a `multipart/form-data` body with busboy while it arrives. Each limit is checked on the
 * chunk that crosses it and ends the read at once with a 413 (the adapter takes in the rest within
 * its own bounds); a body busboy cannot parse (no boundary, truncated) is a 400. Files larger than
 * `memoryFileBytes` go to `storage` chunk by chunk; on any failure its files are removed before
 * the error is thrown.
 */
export async function readMultipart(
  body: RequestBody,
  contentType: string,
  limits: MultipartLimits,
  storage: UploadStorage,
): Promise<MultipartObject> {
  const reading = new MultipartReading(limits, storage);
  try {
    return await reading.read(body, contentType);
  } catch (error) {
    await storage.removeAll();
    throw asHttpError(error);
  }
}

class MultipartReading {
  readonly #limits: MultipartLimits;
  readonly #storage: UploadStorage;
  readonly #entries: [string, MultipartValue][] = [];
  readonly #files: Promise<void>[] = [];
  readonly #fileStreams = new Set<BusboyFileStream>();
  #failure: HttpError | undefined;
  #fail: (error: HttpError) => void = () => undefined;
  /** Rejects with the first failure, so every wait on the parser also ends on it. */
  readonly #failed = new Promise<never>((_, reject) => {
    this.#fail = (error) => {
      this.#failure ??= error;
      reject(this.#failure);
    };
  });

  constructor(limits: MultipartLimits, storage: UploadStorage) {
    this.#limits = limits;
    this.#storage = storage;
    this.#failed.catch(() => undefined);
  }

  async read(body: RequestBody, contentType: string): Promise<MultipartObject> {
    const parser = this.#parser(contentType);
    const finished = new Promise<void>((resolve) => parser.once('finish', resolve));
    const { maxBodyBytes } = this.#limits;
    let received = 0;
    try {
      for await (const chunk of body.stream()) {
        received += chunk.byteLength;
        if (received > maxBodyBytes) throw tooLarge(`The request body is larger than the ${maxBodyBytes}-byte limit.`);
        if (!parser.write(chunk)) await Promise.race([new Promise((resolve) => parser.once('drain', resolve)), this.#failed]);
        if (this.#failure !== undefined) throw this.#failure;
      }
      parser.end();
      await Promise.race([finished, this.#failed]);
      await Promise.race([Promise.all(this.#files), this.#failed]);
    } catch (error) {
      parser.destroy();
      // Files still being written stop now; wait for them so that no file is left open.
      for (const stream of this.#fileStreams) stream.destroy();
      await Promise.allSettled(this.#files);
      throw error;
    }
    if (this.#failure !== undefined) throw this.#failure;
    return groupByName(this.#entries);
  }

  #parser(contentType: string): BusboyInstance {
    const { maxFiles, maxFields, maxFileBytes, maxFieldBytes } = this.#limits;
    let parser: BusboyInstance;
    try {
      parser = new Busboy({
        headers: { 'content-type': contentType },
        limits: { files: maxFiles, fields: maxFields, fileSize: maxFileBytes, fieldSize: maxFieldBytes, parts: maxFiles + maxFields },
      });
    } catch (error) {
      throw new BadRequestHttpError('The multipart body has no usable boundary in its Content-Type.', { cause: error });
    }
    parser.on('field', (name, value, _nameTruncated, valueTruncated) => {
      if (valueTruncated) this.#fail(tooLarge(`The field "${name}" is larger than the ${maxFieldBytes}-byte limit.`));
      else this.#entries.push([name, value]);
    });
    parser.on('file', (name, stream, filename, _encoding, mimeType) => {
      this.#files.push(this.#receiveFile(name, stream, filename, mimeType));
    });
    parser.on('filesLimit', () => this.#fail(tooLarge(`The request has more than the ${maxFiles} files this server reads.`)));
    parser.on('fieldsLimit', () => this.#fail(tooLarge(`The request has more than the ${maxFields} fields this server reads.`)));
    parser.on('partsLimit', () => this.#fail(tooLarge(`The request has more than the ${maxFiles + maxFields} parts this server reads.`)));
    parser.on('error', (error: unknown) => this.#fail(new BadRequestHttpError('The multipart body is malformed.', { cause: error })));
    return parser;
  }

  /** Takes in one file part: in memory up to `memoryFileBytes`, then in a temporary file. Never rejects. */
  async #receiveFile(name: string, stream: BusboyFileStream, filename: string, mimeType: string): Promise<void> {
    const { maxFileBytes, memoryFileBytes } = this.#limits;
    stream.once('limit', () => this.#fail(tooLarge(`The file "${name}" is larger than the ${maxFileBytes}-byte limit.`)));
    this.#fileStreams.add(stream);
    let chunks: Buffer[] = [];
    let size = 0;
    let spilled: Awaited<ReturnType<UploadStorage['create']>> | undefined;
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        if (this.#failure !== undefined) break;
        size += chunk.byteLength;
        if (spilled === undefined && size > memoryFileBytes) {
          spilled = await this.#storage.create();
          for (const held of chunks) await spilled.handle.write(held);
          chunks = [];
        }
        if (spilled === undefined) chunks.push(chunk);
        else await spilled.handle.write(chunk);
      }
    } catch (error) {
      this.#fail(isStorageError(error) ? notStored(error) : asHttpError(error));
    } finally {
      this.#fileStreams.delete(stream);
      stream.resume();
      await spilled?.handle.close();
    }
    if (this.#failure !== undefined) return;
    // A file input left empty: browsers send a part with an empty name and no bytes.
    if (filename === '' && size === 0) return;
    const type = mimeType || 'application/octet-stream';
    try {
      const bits = spilled === undefined ? chunks : [await openAsBlob(spilled.path)];
      this.#entries.push([name, new File(bits, filename, { type })]);
    } catch (error) {
      this.#fail(notStored(error));
    }
  }
}

function tooLarge(message: string): PayloadTooLargeHttpError {
  return new PayloadTooLargeHttpError(message);
}

/** Errors of the body's transport keep their status; anything else about reading is the client's body. */
function asHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  return new BadRequestHttpError('The multipart body could not be read.', { cause: error });
}

function notStored(cause: unknown): HttpError {
  return new HttpError(500, 'The upload could not be stored.', { cause });
}

/** A failure of the disk (full, not writable), not of the client's body. */
function isStorageError(error: unknown): boolean {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).syscall === 'string';
}
