import type { Response } from '@switchboard/http-kernel';

/** Framing fields the node adapter's writer sets itself rather than passing on. */
const FRAMING = new Set(['transfer-encoding', 'content-length']);

/**
 * Status, headers and body as the node adapter writes `response` on HTTP/1.1 (see its response
 * writer): 1xx, 204 and 304 carry no body or framing fields (a 304 keeps its `Content-Length`); a
 * text or byte body gets its `Content-Length`; HEAD gets the headers GET would, without the body.
 * A streamed body is read to its end. Throws when a header value could not be written.
 */
export async function wireResponse(response: Response, isHead: boolean): Promise<{ status: number; headers: Headers; body: Uint8Array }> {
  const headers = new Headers();
  const body = response.body;
  const sized = body === null || typeof body === 'string' || body instanceof Uint8Array;
  const dropped = response.isEmpty
    ? response.status === 304
      ? new Set(['transfer-encoding'])
      : FRAMING
    : sized
      ? FRAMING
      : new Set<string>();
  for (const [name, values] of response.headers) {
    if (dropped.has(name)) continue;
    for (const value of values) headers.append(name, value);
  }
  const empty = new Uint8Array(0);
  if (response.isEmpty) return { status: response.status, headers, body: empty };
  if (sized) {
    const bytes = body === null ? empty : typeof body === 'string' ? new TextEncoder().encode(body) : body;
    const declared = isHead ? response.headers.get('content-length') : undefined;
    headers.set('content-length', declared ?? String(bytes.byteLength));
    return { status: response.status, headers, body: isHead ? empty : bytes };
  }
  if (isHead) return { status: response.status, headers, body: empty };
  const chunks: Uint8Array[] = [];
  const encoder = new TextEncoder();
  for await (const chunk of body) chunks.push(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
  return { status: response.status, headers, body: Buffer.concat(chunks) };
}
