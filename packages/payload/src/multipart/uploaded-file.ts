import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';

/** Where an uploaded file's bytes are: in memory (small files) or in a temporary file. */
export type UploadedFileContent = { readonly bytes: Uint8Array } | { readonly path: string };

/**
 * A file part of a `multipart/form-data` body, shaped like the web's `File`: `name`, `type`,
 * `size`, `stream()`, `arrayBuffer()`, `bytes()`, `text()`. Small files are kept in memory, larger
 * ones in a private temporary file that is deleted when the request ends (`kernel.terminate`):
 * read it in the controller, or copy it somewhere of your own there.
 *
 * Validate it with `z.instanceof(UploadedFile)` (zod) or `v.instance(UploadedFile)` (valibot).
 */
export class UploadedFile {
  /** The file name the client sent, without any directory part; `""` when it sent none. */
  readonly name: string;
  /** The part's media type as the client declared it (`application/octet-stream` when absent); not checked. */
  readonly type: string;
  /** In bytes. */
  readonly size: number;
  /** When the upload was received, in ms since the epoch (clients do not send a modification time). */
  readonly lastModified: number;
  readonly #content: UploadedFileContent;

  constructor(name: string, type: string, size: number, content: UploadedFileContent) {
    this.name = name;
    this.type = type;
    this.size = size;
    this.lastModified = Date.now();
    this.#content = content;
  }

  /** The bytes as a web stream, read from memory or from the temporary file as they are consumed. */
  stream(): ReadableStream<Uint8Array> {
    const content = this.#content;
    if ('path' in content) return Readable.toWeb(createReadStream(content.path)) as ReadableStream<Uint8Array>;
    return new ReadableStream({
      start(controller) {
        if (content.bytes.byteLength > 0) controller.enqueue(content.bytes.slice());
        controller.close();
      },
    });
  }

  async bytes(): Promise<Uint8Array> {
    const content = this.#content;
    if ('path' in content) return new Uint8Array(await readFile(content.path));
    return content.bytes.slice();
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.bytes();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(await this.bytes());
  }

  toString(): string {
    return `[uploaded file "${this.name}", ${this.size} bytes]`;
  }
}
