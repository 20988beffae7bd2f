import { PayloadTooLargeHttpError, type Request } from '@switchboard/http-kernel';
import { joinBytes } from '@switchboard/http-kernel/internal';

// One read per body: two payload arguments of one request (or a sub-request sharing its body)
// must not consume the stream twice. Keyed by the body object, so nothing outlives the request.
const reads = new WeakMap<object, Promise<Uint8Array>>();

/**
 * The request body as bytes, refused with a 413 past `maxBytes`: at once when `Content-Length`
 * says so (nothing is read), else once the bytes read went over (a chunked body has no length to trust).
 */
export function readBody(request: Request, maxBytes: number): Promise<Uint8Array> {
  const body = request.body;
  if (body === null) return Promise.resolve(new Uint8Array(0));
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) return Promise.reject(tooLarge(maxBytes));
  let read = reads.get(body);
  if (read === undefined) {
    read = collect(body.stream(), maxBytes);
    reads.set(body, read);
  }
  return read;
}

async function collect(chunks: AsyncIterable<Uint8Array>, maxBytes: number): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let total = 0;
  try {
    for await (const chunk of chunks) {
      total += chunk.byteLength;
      // Past the limit the rest is still read and dropped (the adapter bounds it with its own
      // limit and timeout): a half-read body would leave the next request on a keep-alive
      // connection waiting behind it.
      if (total <= maxBytes) parts.push(chunk);
    }
  } catch (error) {
    if (total > maxBytes) throw tooLarge(maxBytes);
    throw error;
  }
  if (total > maxBytes) throw tooLarge(maxBytes);
  return joinBytes(parts, total);
}

function tooLarge(maxBytes: number): PayloadTooLargeHttpError {
  return new PayloadTooLargeHttpError(`The request body is larger than the ${maxBytes}-byte limit.`);
}
