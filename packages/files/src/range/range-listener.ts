import { evaluatePreconditions, notModifiedResponse, strongMatch, type Validators } from '@switchboard/http-cache';
import {
  parseHttpDate,
  HttpError,
  type EventSubscriber,
  type HeaderBag,
  type KernelEventMap,
  type Request,
  type ResponseEvent,
  type SubscribedEvents,
} from '@switchboard/http-kernel';
import { parseByteRanges } from './byte-ranges.js';
import { concatPieces, contentRange, multipartByteranges, piecesLength } from './multipart-byteranges.js';
import { isSeekableBody, releaseBody, type BodyPiece } from './seekable-body.js';

export interface RangeListenerOptions {
  /** More ranges than this in one request: the whole body is sent instead (200). Default 8. */
  readonly maxRanges?: number;
}

/**
 * Partial and conditional answers for any main GET/HEAD `200` whose length is known: a text or
 * bytes body, or a seekable one (`FileResponse`). In RFC 9110 §13.2.2 order:
 * 1. `If-Match` / `If-Unmodified-Since` that fail → 412; `If-None-Match` / `If-Modified-Since`
 *    that match → 304 (against the response's own `ETag` and `Last-Modified`);
 * 2. `Accept-Ranges: bytes` on the response;
 * 3. `If-Range` that does not match (strong ETag, or the exact `Last-Modified` date) → the whole body;
 * 4. `Range` on GET: one range → 206 with `Content-Range`; several → 206 `multipart/byteranges`;
 *    none satisfiable → 416 whose `Content-Range` gives the size alone; malformed, overlapping, or more
 *    than `maxRanges` → the whole body (200), which never sends more bytes than a plain GET.
 * A file body read as a window opens the file once and reads only the bytes asked for.
 */
export class RangeListener implements EventSubscriber<KernelEventMap> {
  /**
   * After `CacheAttributeListener.RESPONSE_PRIORITY` (-10) has set a route's validators and the
   * CORS `Vary` (-20), so a 304 or a 206 gets the same caching headers as the 200 it stands for.
   */
  static readonly RESPONSE_PRIORITY = -24;

  readonly #maxRanges: number;

  constructor(options: RangeListenerOptions = {}) {
    this.#maxRanges = options.maxRanges ?? 8;
    if (!Number.isInteger(this.#maxRanges) || this.#maxRanges < 1) throw new RangeError('maxRanges must be a positive integer.');
  }

  getSubscribedEvents(): SubscribedEvents<KernelEventMap> {
    return { 'kernel.response': [this.onKernelResponse, RangeListener.RESPONSE_PRIORITY, { mainRequestOnly: true }] };
  }

  onKernelResponse(event: ResponseEvent): void | Promise<void> {
    const { request, response } = event;
    const body = response.body;
    if (response.status !== 200 || (request.method !== 'GET' && request.method !== 'HEAD')) return;
    const seekable = isSeekableBody(body) ? body : null;
    if (seekable === null && typeof body !== 'string' && !(body instanceof Uint8Array)) return;

    const validators = validatorsOf(response.headers);
    const outcome = evaluatePreconditions(request, validators);
    if (outcome === 'not-modified') {
      event.setResponse(notModifiedResponse(validators, response.headers));
      return releaseBody(body);
    }
    if (outcome === 'precondition-failed')
      return refuse(body, new HttpError(412, 'The resource does not match the request preconditions.'));

    const acceptRanges = response.headers.get('accept-ranges');
    if (acceptRanges === 'none') return;
    if (acceptRanges === undefined) response.headers.set('accept-ranges', 'bytes');
    const range = request.method === 'GET' ? request.headers.get('range') : undefined;
    if (range === undefined || !ifRangeHolds(request, validators)) return;

    const bytes = seekable === null ? (typeof body === 'string' ? Buffer.from(body) : (body as Uint8Array)) : null;
    const size = seekable?.size ?? bytes!.byteLength;
    const asked = parseByteRanges(range, size, this.#maxRanges);
    if (asked.kind === 'ignore') return;
    if (asked.kind === 'unsatisfiable') {
      const headers = { 'content-range': `bytes */${size}` };
      return refuse(body, new HttpError(416, 'None of the requested ranges is within the resource.', { headers }));
    }

    let pieces: BodyPiece[] = [...asked.ranges];
    if (asked.ranges.length === 1) {
      response.headers.set('content-range', contentRange(asked.ranges[0]!, size));
    } else {
      const multipart = multipartByteranges(asked.ranges, size, response.headers.get('content-type'));
      pieces = multipart.pieces;
      response.headers.set('content-type', `multipart/byteranges; boundary=${multipart.boundary}`);
    }
    response.status = 206;
    response.headers.set('content-length', String(piecesLength(pieces)));
    response.body = seekable === null ? concatPieces(bytes!, pieces) : seekable.withPieces(pieces);
  }
}

function validatorsOf(headers: HeaderBag): Validators {
  const lastModified = headers.get('last-modified');
  const time = lastModified === undefined ? null : parseHttpDate(lastModified);
  return { etag: headers.get('etag') ?? null, lastModified: time === null ? null : new Date(time) };
}

/**
 * `If-Range` (RFC 9110 §13.1.5): an entity tag matches by strong comparison only; a date only
 * when it is exactly the `Last-Modified` date. Anything else sends the whole body.
 */
function ifRangeHolds(request: Request, validators: Validators): boolean {
  const condition = request.headers.get('if-range');
  if (condition === undefined) return true;
  if (condition.startsWith('"') || condition.startsWith('W/')) return validators.etag !== null && strongMatch(condition, validators.etag);
  const date = parseHttpDate(condition);
  return validators.lastModified !== null && date !== null && date === validators.lastModified.getTime();
}

/** The body will not be sent: its file is let go before the error answer replaces it. */
async function refuse(body: unknown, error: HttpError): Promise<never> {
  await releaseBody(body);
  throw error;
}
