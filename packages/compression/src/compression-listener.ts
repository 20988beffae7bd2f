import {
  addVary,
  type EventSubscriber,
  type KernelEventMap,
  type OwnedDeclarations,
  type RequestEvent,
  type Response,
  type ResponseEvent,
  type SubscribedEvents,
} from '@switchboard/http-kernel';
import { negotiateCoding } from './accept-encoding.js';
import {
  AVAILABLE_CODINGS,
  compressStream,
  compressSync,
  DEFAULT_LEVELS,
  type CompressionLevels,
  type ContentCoding,
} from './content-coding.js';
import { compressedStream } from './compressed-stream.js';
import { isCompressibleType } from './compressible-type.js';
import { codedEntityTag, uncodedEntityTags } from './entity-tag-coding.js';

/** What a route declares in `_compression`: `false` never compresses its answers. */
export type RouteCompression = false | { eventStream?: boolean };

declare module '@switchboard/http-kernel' {
  interface RequestAttributes {
    /** `false`: never compress this route's answers; `{ eventStream: true }`: compress its event stream, flushed per event. */
    _compression?: RouteCompression;
  }
}

export interface CompressionListenerOptions {
  /** Bodies smaller than this many bytes are sent as they are (the headers would eat the gain). Default 1024. */
  threshold?: number;
  /** The codings offered, best first. Default every one this Node version has: br, zstd (Node ≥ 22.15), gzip, deflate. */
  codings?: readonly ContentCoding[];
  levels?: CompressionLevels;
  /**
   * Compress error answers too. Default true; a host whose error answers' headers are fixed by a
   * contract (`Vary: Accept` only) turns it off.
   */
  errors?: boolean;
  /** Bodies in memory up to this size are compressed at once (and keep a `Content-Length`); larger ones as a stream. Default 256 KiB. */
  inMemoryLimit?: number;
}

/** Sizes a body in memory is cut into when it is compressed as a stream. */
const SLICE_BYTES = 64 * 1024;
const encoder = new TextEncoder();

/**
 * Compresses main responses for clients that accept it:
 * - `kernel.request` (`REQUEST_PRIORITY`): takes the coding suffixes off `If-None-Match` and
 *   `If-Match`, so a compressed copy revalidates against the app's own tag;
 * - `kernel.response` (`RESPONSE_PRIORITY`): for a body of a compressible type (MIME database),
 *   adds `Vary: Accept-Encoding`, then compresses it with the coding `Accept-Encoding` rates best
 *   when it is at least `threshold` bytes (or of unknown length), suffixing a quoted `ETag` with
 *   the coding. Never for a 206 or a request with `Range` (ranges are of the identity body), a response that has a
 *   `Content-Encoding` or `Cache-Control: no-transform`, or an event stream unless its
 *   route declares `_compression: { eventStream: true }`. Streamed bodies stay streamed.
 */
export class CompressionListener implements EventSubscriber<KernelEventMap> {
  /** Early, before anything compares validators (`CacheAttributeListener`, the files package's conditional checks). */
  static readonly REQUEST_PRIORITY = 256;
  /**
   * After every listener that sets headers or replaces the body (cache, range, CORS, security
   * headers, the profiler's token), before `StatelessCheckListener` (-1000).
   */
  static readonly RESPONSE_PRIORITY = -512;
  readonly #threshold: number;
  readonly #codings: readonly ContentCoding[];
  readonly #levels: Required<CompressionLevels>;
  readonly #errors: boolean;
  readonly #inMemoryLimit: number;

  constructor(options: CompressionListenerOptions = {}) {
    this.#threshold = options.threshold ?? 1024;
    const unknown = (options.codings ?? []).filter((coding) => !AVAILABLE_CODINGS.includes(coding));
    if (unknown.length > 0)
      throw new RangeError(`Content coding(s) not available here: ${unknown.join(', ')} (available: ${AVAILABLE_CODINGS.join(', ')}).`);
    this.#codings = options.codings ?? AVAILABLE_CODINGS;
    this.#levels = { ...DEFAULT_LEVELS, ...options.levels };
    this.#errors = options.errors ?? true;
    this.#inMemoryLimit = options.inMemoryLimit ?? 256 * 1024;
  }

  /** The route declarations this listener acts on: a route with one needs it registered. */
  getOwnedDeclarations(): OwnedDeclarations {
    return { routeDefaults: ['_compression'] };
  }

  getSubscribedEvents(): SubscribedEvents<KernelEventMap> {
    return {
      'kernel.request': [this.onKernelRequest, CompressionListener.REQUEST_PRIORITY, { mainRequestOnly: true }],
      'kernel.response': [this.onKernelResponse, CompressionListener.RESPONSE_PRIORITY, { mainRequestOnly: true }],
    };
  }

  onKernelRequest(event: RequestEvent): void {
    const headers = event.request.headers;
    for (const name of ['if-none-match', 'if-match']) {
      const value = headers.get(name);
      if (value?.includes('-')) headers.set(name, uncodedEntityTags(value));
    }
  }

  onKernelResponse(event: ResponseEvent): void {
    const { request, response } = event;
    const declared = request.attributes.get('_compression');
    if (declared === false || !this.#mayCompress(response)) return;
    const headers = response.headers;
    const contentType = headers.get('content-type');
    const eventStream = contentType?.startsWith('text/event-stream') === true;
    if (eventStream ? declared?.eventStream !== true : !isCompressibleType(contentType)) return;
    addVary(headers, 'Accept-Encoding');
    // A range request gets identity bytes even when answered whole (200): a resumed download must
    // be able to continue with the same bytes. HEAD goes on: its headers must be GET's.
    if (request.headers.has('range')) return;
    const body = response.body;
    if (body === null) return;
    // Negotiated before the body is encoded: most clients that send no Accept-Encoding cost nothing more.
    const coding = negotiateCoding(request.headers.get('accept-encoding'), this.#codings);
    if (coding === null) return;
    const inMemory = typeof body === 'string' || body instanceof Uint8Array;
    const bytes = inMemory ? (typeof body === 'string' ? encoder.encode(body) : body) : null;
    const length = bytes?.byteLength ?? Number(headers.get('content-length') ?? Number.NaN);
    if (length < this.#threshold) return;
    if (bytes !== null && bytes.byteLength <= this.#inMemoryLimit) {
      const compressed = compressSync(coding, bytes, this.#levels, bytes.byteLength);
      response.body = compressed;
      headers.set('content-length', compressed.byteLength);
    } else {
      const source = bytes === null ? (body as AsyncIterable<Uint8Array | string>) : slices(bytes);
      response.body = compressedStream(source, compressStream(coding, this.#levels), eventStream);
      headers.delete('content-length');
    }
    headers.set('content-encoding', coding);
    const etag = headers.get('etag');
    if (etag !== undefined) headers.set('etag', codedEntityTag(etag, coding));
  }

  /** What rules compression out whatever the body. */
  #mayCompress(response: Response): boolean {
    if (response.status === 206 || response.isEmpty || (!this.#errors && response.status >= 400)) return false;
    const headers = response.headers;
    if (headers.has('content-encoding')) return false;
    const cacheControl = headers.get('cache-control');
    return cacheControl === undefined || !/(?:^|,)\s*no-transform\s*(?:,|$)/i.test(cacheControl);
  }
}

async function* slices(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.byteLength; at += SLICE_BYTES) yield bytes.subarray(at, at + SLICE_BYTES);
}
