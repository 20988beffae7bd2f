import { pipeline, Readable, type Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { BadRequestHttpError, HttpError, UnsupportedMediaTypeHttpError, type Request, type RequestBody } from '@switchboard/http-kernel';

/** The request codings read, as a 415 lists them in `Accept-Encoding` (RFC 7694). */
export const ACCEPTED_REQUEST_CODINGS = 'gzip, deflate, br';

const DECODERS: Readonly<Record<string, () => Transform>> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};
/** More layers than any client applies; a longer list is refused rather than unwound. */
const MAX_CODINGS = 2;

/**
 * The request's body as its media type reads it: the bytes sent when there is no `Content-Encoding`
 * (or only `identity`), else a body whose chunks are the decoded ones, undone as they arrive (a
 * limit counted on them stops the decoding too). A coding we do not read is a 415 whose
 * `Accept-Encoding` lists those we do.
 */
export function decodedBody(request: Request): RequestBody | null {
  const body = request.body;
  if (body === null) return null;
  const codings = contentCodingsOf(request.headers.getAll('content-encoding'));
  if (codings.length === 0) return body;
  return {
    stream: () => decodedChunks(body.stream(), codings),
    bytes: () => Promise.reject(new TypeError('A decoded request body is read as a stream.')),
    text: () => Promise.reject(new TypeError('A decoded request body is read as a stream.')),
  };
}

/** The codings in the order they were applied, `identity` left out; 415 for one we cannot undo. */
function contentCodingsOf(values: readonly string[]): string[] {
  const codings = values
    .flatMap((value) => value.split(','))
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  const unknown = codings.find((coding) => !Object.hasOwn(DECODERS, coding));
  if (unknown !== undefined || codings.length > MAX_CODINGS) {
    throw new UnsupportedMediaTypeHttpError(
      unknown === undefined
        ? `The request body has more than ${MAX_CODINGS} content codings.`
        : `The request body's content coding "${unknown.slice(0, 40)}" is not one this server reads (${ACCEPTED_REQUEST_CODINGS}).`,
      { headers: { 'accept-encoding': ACCEPTED_REQUEST_CODINGS } },
    );
  }
  return codings;
}

/**
 * The chunks of `raw` with `codings` undone, last applied first. Stopping the iteration stops the
 * decoders and the raw reading (the adapter then takes in the rest within its bounds); what the
 * decoders hold at once is their buffers, whatever the body inflates to. Data a decoder refuses is
 * a 400; the raw body's own errors (its size and time limits) keep their status.
 */
async function* decodedChunks(raw: AsyncIterable<Uint8Array>, codings: readonly string[]): AsyncGenerator<Uint8Array> {
  const source = Readable.from(raw, { objectMode: false });
  const decoders = codings.toReversed().map((coding) => DECODERS[coding]!());
  const decoded = pipeline([source, ...decoders], () => undefined) as unknown as Readable;
  try {
    for await (const chunk of decoded) yield chunk as Uint8Array;
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new BadRequestHttpError(`The request body is not valid ${codings.join(', ')} data.`, { cause: error });
  } finally {
    decoded.destroy();
  }
}
