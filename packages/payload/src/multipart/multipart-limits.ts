/** What bounds the reading of one `multipart/form-data` body; each limit crossed is a 413 at once. */
export interface MultipartLimits {
  /** The whole body, in bytes. */
  readonly maxBodyBytes: number;
  /** One file part, in bytes. */
  readonly maxFileBytes: number;
  /** Number of file parts. */
  readonly maxFiles: number;
  /** Number of non-file parts (fields). */
  readonly maxFields: number;
  /** One field's value, in bytes (fields are kept in memory). */
  readonly maxFieldBytes: number;
  /** Files up to this size stay in memory; larger ones are written to a temporary file as they arrive. */
  readonly memoryFileBytes: number;
}

export const DEFAULT_MAX_FILES = 10;
export const DEFAULT_MAX_FIELD_BYTES = 64 * 1024;
export const DEFAULT_MEMORY_FILE_BYTES = 64 * 1024;
