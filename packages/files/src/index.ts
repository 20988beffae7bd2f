/**
 * @switchboard/files — file responses (a path, a `FileHandle` or a `Blob`), `Range` and
 * conditional requests for any response of known length, and a static-directory controller that
 * keeps every request inside its root.
 * @module
 */
export { FileResponse, type FileResponseOptions } from './response/file-response.js';
export { FileBody, type FileSource } from './response/file-body.js';
export { asciiFallback, contentDisposition, type DispositionType } from './response/content-disposition.js';
export { RangeListener, type RangeListenerOptions } from './range/range-listener.js';
export { parseByteRanges, type RangeRequest } from './range/byte-ranges.js';
export { isSeekableBody, releaseBody, type BodyPiece, type ByteRange, type SeekableBody } from './range/seekable-body.js';
export { serveDirectory, type ServeDirectoryOptions } from './directory/serve-directory.js';
