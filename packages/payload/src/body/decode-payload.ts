import { BadRequestHttpError, PayloadTooLargeHttpError, UnsupportedMediaTypeHttpError, type Request } from '@switchboard/http-kernel';
import type { PayloadSource } from '../argument/payload-options.js';
import { isJsonMediaType, parseMediaType, type MediaType } from './media-type.js';
import { readBody } from './read-body.js';

/** What was read for a payload: nothing at all (an empty body), or the decoded value. */
export type DecodedPayload = { readonly empty: true } | { readonly empty: false; readonly value: unknown };

const EMPTY: DecodedPayload = { empty: true };
const FORM_MEDIA_TYPE = 'application/x-www-form-urlencoded';

/** What each body source accepts, and how a refusal names it. */
const BODY_MEDIA_TYPES: Readonly<Record<'json' | 'form', { accepts: (essence: string) => boolean; expected: string }>> = {
  json: { accepts: isJsonMediaType, expected: 'JSON (application/json)' },
  form: { accepts: (essence) => essence === FORM_MEDIA_TYPE, expected: `a form (${FORM_MEDIA_TYPE})` },
};
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** What bounds one decode: the body's bytes, and the fields of a query string or form. */
export interface DecodeLimits {
  readonly maxBodyBytes: number;
  readonly maxFields: number;
}

/**
 * Reads the raw payload of one source, before validation. A body in the wrong media type is a
 * 415, a body that does not decode (bad JSON, bad UTF-8) a 400, a body or a query string or form
 * past its limits a 413; an empty body is reported as such so the caller can use the argument's
 * default or let the schema decide.
 */
export async function decodePayload(
  request: Request,
  from: Exclude<PayloadSource, 'multipart'>,
  limits: DecodeLimits,
): Promise<DecodedPayload> {
  const { maxBodyBytes, maxFields } = limits;
  if (from === 'query') {
    assertFieldCount(request.queryString, maxFields, 'The query string');
    return { empty: false, value: groupByName(request.query) };
  }
  const mediaType = parseMediaType(request.headers.get('content-type'));
  if (request.body === null || request.headers.get('content-length')?.trim() === '0') return EMPTY;
  const { accepts, expected } = BODY_MEDIA_TYPES[from];
  // Without a Content-Type the body may still be empty (HTTP/2 need not announce a length):
  // only a body that turns out to hold bytes is refused.
  if (mediaType !== null) assertMediaType(mediaType, accepts, expected);
  const bytes = await readBody(request, maxBodyBytes);
  if (bytes.byteLength === 0) return EMPTY;
  if (mediaType === null) {
    throw new UnsupportedMediaTypeHttpError(`The request body must be ${expected}; the request has no Content-Type.`);
  }
  const text = decodeUtf8(bytes);
  if (from === 'form') {
    assertFieldCount(text, maxFields, 'The form');
    return { empty: false, value: groupByName(new URLSearchParams(text)) };
  }
  if (text.trim() === '') return EMPTY;
  return { empty: false, value: parseJson(text) };
}

/**
 * Counts the fields of an urlencoded text (its non-empty `&`-separated parts, as URLSearchParams
 * reads them) without decoding any, and stops counting past the limit: a million-field form is
 * refused before a million strings and a million-key object are built from it.
 */
function assertFieldCount(urlencoded: string, maxFields: number, what: string): void {
  let fields = 0;
  let start = 0;
  while (start <= urlencoded.length) {
    let end = urlencoded.indexOf('&', start);
    if (end === -1) end = urlencoded.length;
    if (end > start && ++fields > maxFields) {
      throw new PayloadTooLargeHttpError(`${what} has more than the ${maxFields} fields this server reads.`);
    }
    start = end + 1;
  }
}

function assertMediaType(mediaType: MediaType, accepts: (essence: string) => boolean, expected: string): void {
  if (!accepts(mediaType.essence)) {
    throw new UnsupportedMediaTypeHttpError(`The request body must be ${expected}, not "${mediaType.essence}".`);
  }
  if (mediaType.charset !== null && mediaType.charset !== 'utf-8' && mediaType.charset !== 'utf8') {
    throw new UnsupportedMediaTypeHttpError(`The request body must be UTF-8, not "${mediaType.charset}".`);
  }
}

function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new BadRequestHttpError('The request body is not valid UTF-8.');
  }
}

/**
 * JSON.parse's own message may quote the body, and a body may hold a password: the error (which
 * is logged and shown in debug pages) keeps only the position.
 */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const position = /position (\d+)/.exec(error instanceof Error ? error.message : '')?.[1];
    throw new BadRequestHttpError(
      `The request body is not valid JSON${position === undefined ? '' : ` (syntax error at position ${position})`}.`,
    );
  }
}

/**
 * Named values (a query string, a form, multipart parts) as a plain object: a name given once maps to its value, a name repeated to the
 * array of its values. Built with `Object.fromEntries`, so a `__proto__` key is an ordinary own
 * property and cannot reach any prototype.
 */
export function groupByName<V>(entries: Iterable<readonly [string, V]>): Record<string, V | V[]> {
  const grouped = new Map<string, V[]>();
  for (const [name, value] of entries) {
    const values = grouped.get(name);
    if (values === undefined) grouped.set(name, [value]);
    else values.push(value);
  }
  return Object.fromEntries([...grouped].map(([name, values]) => [name, values.length === 1 ? values[0]! : values]));
}
