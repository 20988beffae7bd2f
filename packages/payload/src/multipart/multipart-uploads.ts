import { tmpdir } from 'node:os';
import { PayloadTooLargeHttpError, UnsupportedMediaTypeHttpError, type Request } from '@switchboard/http-kernel';
import type { PayloadOptions } from '../argument/payload-options.js';
import type { DecodedPayload, DecodeLimits } from '../body/decode-payload.js';
import { decodedBody } from '../body/content-coding.js';
import { parseMediaType } from '../body/media-type.js';
import { DEFAULT_MAX_FIELD_BYTES, DEFAULT_MAX_FILES, DEFAULT_MEMORY_FILE_BYTES, type MultipartLimits } from './multipart-limits.js';
import { readMultipart, type MultipartObject } from './read-multipart.js';
import { UploadStorage } from './upload-storage.js';

/** The resolver's defaults for `multipart/form-data` bodies; an argument's own options override the limits. */
export interface MultipartOptions {
  /** Largest file part, in bytes (default: the body limit). */
  maxFileBytes?: number;
  /** Most file parts (default 10). */
  maxFiles?: number;
  /** Largest field value, in bytes (default 64 KiB). */
  maxFieldBytes?: number;
  /** Files up to this size stay in memory, larger ones go to a temporary file (default 64 KiB). */
  memoryFileBytes?: number;
  /** Where the private folders of temporary files are made (default `os.tmpdir()`). */
  temporaryDirectory?: string;
}

const MULTIPART_MEDIA_TYPE = 'multipart/form-data';

interface BodyUploads {
  readonly storage: UploadStorage;
  readonly read: Promise<MultipartObject>;
}

/**
 * Reads multipart bodies for the payload resolver — once per body, even with several arguments
 * or a sub-request sharing it — and remembers each body's temporary files until `removeFilesOf`
 * (the resolver's `kernel.terminate` listener). Keyed by the body object, so nothing outlives the request.
 */
export class MultipartUploads {
  readonly #options: MultipartOptions;
  readonly #temporaryDirectory: string;
  readonly #byBody = new WeakMap<object, BodyUploads>();

  constructor(options: MultipartOptions = {}) {
    for (const key of ['maxFileBytes', 'maxFiles', 'maxFieldBytes', 'memoryFileBytes'] as const) {
      const value = options[key];
      if (value !== undefined && !(Number.isSafeInteger(value) && value >= 0)) {
        throw new RangeError(`multipart.${key} must be a non-negative integer, got ${value}.`);
      }
    }
    this.#options = options;
    this.#temporaryDirectory = options.temporaryDirectory ?? tmpdir();
  }

  /**
   * The body's parts as an object (fields as strings, files as web `File`s). 415 for another
   * media type, 413 when `Content-Length` already says the body is over its limit (nothing read).
   */
  async decode(request: Request, options: PayloadOptions, limits: DecodeLimits): Promise<DecodedPayload> {
    const body = request.body;
    if (body === null || request.headers.get('content-length')?.trim() === '0') return { empty: true };
    const contentType = request.headers.get('content-type') ?? '';
    const essence = parseMediaType(contentType)?.essence ?? null;
    if (essence !== MULTIPART_MEDIA_TYPE) {
      const got = essence === null ? 'the request has no Content-Type' : `not "${essence}"`;
      throw new UnsupportedMediaTypeHttpError(`The request body must be ${MULTIPART_MEDIA_TYPE}; ${got}.`);
    }
    // Undone as it arrives; the limits count the decoded bytes (a 415 for a coding not read).
    const decoded = decodedBody(request)!;
    const declared = Number(request.headers.get('content-length') ?? Number.NaN);
    if (decoded === body && declared > limits.maxBodyBytes) {
      throw new PayloadTooLargeHttpError(`The request body is larger than the ${limits.maxBodyBytes}-byte limit.`);
    }
    let uploads = this.#byBody.get(body);
    if (uploads === undefined) {
      const storage = new UploadStorage(this.#temporaryDirectory);
      uploads = { storage, read: readMultipart(decoded, contentType, this.#limits(options, limits), storage) };
      this.#byBody.set(body, uploads);
    }
    return { empty: false, value: await uploads.read };
  }

  /** Deletes the temporary files read from the request's body (idempotent). */
  removeFilesOf(request: Request): Promise<void> | undefined {
    const body = request.body;
    if (body === null) return undefined;
    return this.#byBody.get(body)?.storage.removeAll();
  }

  #limits(options: PayloadOptions, limits: DecodeLimits): MultipartLimits {
    const defaults = this.#options;
    return {
      maxBodyBytes: limits.maxBodyBytes,
      maxFields: limits.maxFields,
      maxFileBytes: options.maxFileBytes ?? defaults.maxFileBytes ?? limits.maxBodyBytes,
      maxFiles: options.maxFiles ?? defaults.maxFiles ?? DEFAULT_MAX_FILES,
      maxFieldBytes: options.maxFieldBytes ?? defaults.maxFieldBytes ?? DEFAULT_MAX_FIELD_BYTES,
      memoryFileBytes: defaults.memoryFileBytes ?? DEFAULT_MEMORY_FILE_BYTES,
    };
  }
}
