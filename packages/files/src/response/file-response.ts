import { stat, type FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import { Response, type HeaderInit } from '@switchboard/http-kernel';
import { contentType } from 'mime-types';
import { contentDisposition, type DispositionType } from './content-disposition.js';
import { FileBody, type FileSource } from './file-body.js';

export interface FileResponseOptions {
  /** Default: a `Blob`'s own type, else from the file name's extension (`application/octet-stream` when unknown). */
  readonly contentType?: string;
  /** Adds `Content-Disposition`: `attachment` asks the browser to download, `inline` to show. */
  readonly disposition?: DispositionType;
  /** The name in `Content-Disposition`; default: the path's base name, or the `File`'s name. */
  readonly filename?: string;
  /** Set `ETag` (strong, from size and modification time) and `Last-Modified`. Default true. */
  readonly validators?: boolean;
  readonly status?: number;
  readonly headers?: HeaderInit;
}

/** What the file is, as read once when the response is built. */
interface FileFacts {
  readonly size: number;
  readonly modified: Date | null;
  readonly name: string | null;
  /** A `Blob`'s own type, when it has one. */
  readonly type: string | null;
}

/**
 * A file as a response: a path, a `FileHandle` (closed by the response) or a `Blob`/`File`.
 * `Content-Type` from the extension, `Content-Length`, `Last-Modified` and a strong `ETag` from
 * size and modification time, `Content-Disposition` when asked. The body is read as it is sent,
 * in chunks, with back-pressure; a `HEAD` answer carries the headers alone. Range and
 * conditional requests are answered by `RangeListener`.
 *
 * @example return FileResponse.from('/srv/reports/q3.pdf', { disposition: 'attachment' });
 */
export class FileResponse extends Response {
  /** Builds the response; a path or a handle is `stat`ed once, here. */
  static async from(source: FileSource, options: FileResponseOptions = {}): Promise<FileResponse> {
    return new FileResponse(source, await factsOf(source), options);
  }

  private constructor(source: FileSource, facts: FileFacts, options: FileResponseOptions) {
    super(new FileBody(source, facts.size), options.status ?? 200, options.headers);
    const headers = this.headers;
    const type = options.contentType ?? facts.type ?? (facts.name === null ? false : contentType(facts.name));
    if (!headers.has('content-type')) headers.set('content-type', type || 'application/octet-stream');
    headers.set('content-length', String(facts.size));
    if (options.validators !== false && facts.modified !== null) {
      headers.set('last-modified', facts.modified.toUTCString());
      headers.set('etag', `"${facts.size.toString(16)}-${Math.floor(facts.modified.getTime()).toString(16)}"`);
    }
    if (options.disposition !== undefined) {
      headers.set('content-disposition', contentDisposition(options.disposition, options.filename ?? facts.name ?? 'download'));
    }
  }
}

async function factsOf(source: FileSource): Promise<FileFacts> {
  if (source instanceof Blob) {
    const file = source instanceof File ? source : null;
    return {
      size: source.size,
      modified: file === null ? null : new Date(file.lastModified),
      name: file?.name || null,
      type: source.type || null,
    };
  }
  const stats = typeof source === 'string' ? await stat(source) : await (source as FileHandle).stat();
  if (!stats.isFile()) throw new TypeError('A file response needs a regular file.');
  return { size: stats.size, modified: stats.mtime, name: typeof source === 'string' ? basename(source) : null, type: null };
}
