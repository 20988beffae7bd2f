import type { Request } from './request.js';
import type { Response } from './response.js';

/**
 * The bytes of `response`'s body when known without reading it (for access lines and metrics):
 * text and bytes as they are, a stream by its `Content-Length`, `null` for a stream without one;
 * 0 for HEAD and the statuses that carry no body.
 */
export function knownBodyLength(request: Request, response: Response): number | null {
  if (request.method === 'HEAD' || response.isEmpty) return 0;
  const body = response.body;
  if (typeof body === 'string') return utf8Length(body);
  if (body instanceof Uint8Array) return body.byteLength;
  return declaredLength(response.headers.get('content-length'));
}

/** A `Content-Length` value as a number, `null` when absent or not a length. */
export function declaredLength(value: string | undefined): number | null {
  if (value === undefined) return null;
  const length = Number(value);
  return Number.isSafeInteger(length) && length >= 0 ? length : null;
}

/** Node's byte count where there is one (no copy); elsewhere the text is encoded. */
const utf8Length: (text: string) => number =
  typeof globalThis.Buffer?.byteLength === 'function'
    ? (text) => globalThis.Buffer.byteLength(text, 'utf8')
    : (text) => new TextEncoder().encode(text).byteLength;
