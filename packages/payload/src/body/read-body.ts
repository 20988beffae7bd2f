import { PayloadTooLargeHttpError, type Request } from '@switchboard/http-kernel';
import { joinBytes } from '@switchboard/http-kernel/internal';
import { decodedBody } from './content-coding.js';

// One read per body: two payload arguments of one request (or a sub-request sharing its body)
// must not consume the stream twice. Keyed by the body object, so nothing outlives the request.
const reads = new WeakMap<object, Promise<Uint8Array>>();

/**
 * The request body as bytes, with its `Content-Encoding` (gzip, deflate, br) undone, refused with a
 * 413 past `maxBytes` of the decoded body: at once when an unencoded body's `Content-Length` says so
 * (nothing is read), else once the bytes read went over (a chunked body has no length to trust).
 * An encoded body stops being decoded at the limit, so a small body that would inflate to gigabytes
 * costs no more than the limit. A coding the server does not read is a 415.
 */
export function readBody(request: Request, maxBytes: number): Promise<Uint8Array> {
  const raw = request.body;
  if (raw === null) return Promise.resolve(new Uint8Array(0));
  let read = reads.get(raw);
  if (read === undefined) {
    let body: ReturnType<typeof decodedBody>;
    try {
      body = decodedBody(request);
    } catch (error) {
      return Promise.reject(error);
    }
    const encoded = body !== raw;
    const declared = Number(request.headers.get('content-length') ?? Number.NaN);
    if (!encoded && declared > maxBytes) return Promise.reject(tooLarge(maxBytes));
    read = collect(body!.stream(), maxBytes, encoded);
    reads.set(raw, read);
  }
  return read;
}

async function collect(chunks: AsyncIterable<Uint8Array>, maxBytes: number, stopAtLimit: boolean): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let total = 0;
  try {
    for await (const chunk of chunks) {
      total += chunk.byteLength;
      // Past the limit the rest of a plain body is still read and dropped (the adapter bounds it
      // with its own limit and timeout): a half-read body would leave the next request on a
      // keep-alive connection waiting behind it. A decoded one stops there (the adapter then takes
      // in the rest and closes the connection): decoding on would cost what the limit is for.
      if (total <= maxBytes) parts.push(chunk);
      else if (stopAtLimit) break;
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
