/**
 * @switchboard/compression — response compression (br, gzip, deflate, and zstd where Node has
 * it) negotiated from `Accept-Encoding`, for compressible types by the MIME database, streamed
 * bodies compressed as streams.
 * @module
 */
export { CompressionListener, type CompressionListenerOptions, type RouteCompression } from './compression-listener.js';
export { AVAILABLE_CODINGS, type CompressionLevels, type ContentCoding } from './content-coding.js';
export { negotiateCoding } from './accept-encoding.js';
