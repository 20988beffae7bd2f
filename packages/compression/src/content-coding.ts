import zlib from 'node:zlib';
import type { Transform } from 'node:stream';

/** The content codings this package writes, best first when a client rates several equally. */
export type ContentCoding = 'br' | 'zstd' | 'gzip' | 'deflate';

/** Compression effort per coding: higher packs smaller and costs more CPU (see docs/benchmarks.md). */
export interface CompressionLevels {
  /** Brotli quality, 0–11. Default 4: most of brotli's gain over gzip at gzip's cost; 11 is for build-time assets. */
  br?: number;
  /** zstd level, 1–19. Default 3 (zstd's own default). */
  zstd?: number;
  /** gzip level, 1–9. Default 6 (zlib's own default). */
  gzip?: number;
  /** deflate level, 1–9. Default 6. */
  deflate?: number;
}

type ZstdFactories = {
  createZstdCompress?: (options?: { params?: Record<number, number> }) => Transform;
  zstdCompressSync?: (data: Uint8Array, options?: { params?: Record<number, number> }) => Buffer;
  constants: { ZSTD_c_compressionLevel?: number };
};
/** zstd arrived in node:zlib with Node 22.15 / 23.8; older versions never offer it. */
const zstd = zlib as unknown as ZstdFactories;
const HAS_ZSTD = typeof zstd.createZstdCompress === 'function' && zstd.constants.ZSTD_c_compressionLevel !== undefined;

/** The codings this Node version can write, best first. */
export const AVAILABLE_CODINGS: readonly ContentCoding[] = HAS_ZSTD ? ['br', 'zstd', 'gzip', 'deflate'] : ['br', 'gzip', 'deflate'];

export const DEFAULT_LEVELS: Readonly<Required<CompressionLevels>> = { br: 4, zstd: 3, gzip: 6, deflate: 6 };

/** Compresses `data` at once (a body already in memory). */
export function compressSync(coding: ContentCoding, data: Uint8Array, levels: Required<CompressionLevels>, sizeHint: number): Buffer {
  switch (coding) {
    case 'br':
      return zlib.brotliCompressSync(data, brotliOptions(levels.br, sizeHint));
    case 'zstd':
      return zstd.zstdCompressSync!(data, { params: { [zstd.constants.ZSTD_c_compressionLevel!]: levels.zstd } });
    case 'gzip':
      return zlib.gzipSync(data, { level: levels.gzip });
    case 'deflate':
      return zlib.deflateSync(data, { level: levels.deflate });
  }
}

/** A compressing stream (a body that comes in chunks). */
export function compressStream(coding: ContentCoding, levels: Required<CompressionLevels>): Transform {
  switch (coding) {
    case 'br':
      return zlib.createBrotliCompress(brotliOptions(levels.br, 0));
    case 'zstd':
      return zstd.createZstdCompress!({ params: { [zstd.constants.ZSTD_c_compressionLevel!]: levels.zstd } });
    case 'gzip':
      return zlib.createGzip({ level: levels.gzip });
    case 'deflate':
      return zlib.createDeflate({ level: levels.deflate });
  }
}

function brotliOptions(quality: number, sizeHint: number): zlib.BrotliOptions {
  const params: Record<number, number> = {
    [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
  };
  // Known size: brotli sizes its window to it instead of the default 4 MiB.
  if (sizeHint > 0) params[zlib.constants.BROTLI_PARAM_SIZE_HINT] = sizeHint;
  return { params };
}
