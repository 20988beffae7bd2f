/** Header fields as a test writes them: an object (an array value sends the field several times), a `Headers`, or pairs. */
export type HeaderFields =
  | Readonly<Record<string, string | readonly string[] | undefined>>
  | Headers
  | ReadonlyArray<readonly [string, string]>;

/** One query parameter's value; an array repeats the parameter, `undefined` and `null` leave it out. */
export type QueryValue = string | number | boolean | null | undefined | ReadonlyArray<string | number | boolean>;

/** What a request carries besides its method and path. */
export interface TestRequestInit {
  headers?: HeaderFields;
  /** Appended to the path's own query, encoded as a form would (`URLSearchParams`). */
  query?: Readonly<Record<string, QueryValue>>;
  /** Sent as `JSON.stringify(json)` with `content-type: application/json` (unless a header sets one). */
  json?: unknown;
  /**
   * Sent as it is. A `FormData` goes as `multipart/form-data` (boundary and parts as `fetch`
   * encodes them), or as `application/x-www-form-urlencoded` when the headers ask for that type;
   * a `URLSearchParams` goes urlencoded.
   */
  body?: string | Uint8Array | FormData | URLSearchParams;
  /** Overrides the client's `followRedirects` for this request. */
  followRedirects?: boolean;
}

/** The header list and body bytes of a request, as a client would send them. */
export interface EncodedRequest {
  /** Lower-case names, in the order given; content type and length added when the body needs them. */
  readonly headers: Array<[string, string]>;
  readonly body: Uint8Array | null;
}

const URLENCODED = 'application/x-www-form-urlencoded';

/** Encodes the headers and body of `init`; `defaults` come first and are replaced by a field of the same name in `init`. */
export async function encodeRequest(init: TestRequestInit, defaults: ReadonlyArray<readonly [string, string]>): Promise<EncodedRequest> {
  if (init.json !== undefined && init.body !== undefined) throw new TypeError('A request takes `json` or `body`, not both.');
  const given = headerPairs(init.headers);
  const givenNames = new Set(given.map(([name]) => name));
  const headers: Array<[string, string]> = [
    ...defaults.filter(([name]) => !givenNames.has(name)).map(([n, v]): [string, string] => [n, v]),
    ...given,
  ];
  const contentType = headers.find(([name]) => name === 'content-type')?.[1];
  const encoded = await encodeBody(init, contentType);
  if (encoded === null) return { headers, body: null };
  if (contentType === undefined && encoded.type !== undefined) headers.push(['content-type', encoded.type]);
  headers.push(['content-length', String(encoded.bytes.byteLength)]);
  return { headers, body: encoded.bytes };
}

async function encodeBody(init: TestRequestInit, contentType: string | undefined): Promise<{ bytes: Uint8Array; type?: string } | null> {
  if (init.json !== undefined) return { bytes: new TextEncoder().encode(JSON.stringify(init.json)), type: 'application/json' };
  const body = init.body;
  if (body === undefined) return null;
  if (typeof body === 'string') return { bytes: new TextEncoder().encode(body), type: 'text/plain;charset=UTF-8' };
  if (body instanceof Uint8Array) return { bytes: body };
  if (body instanceof URLSearchParams) return { bytes: new TextEncoder().encode(body.toString()), type: URLENCODED };
  if (contentType?.toLowerCase().startsWith(URLENCODED) === true) {
    const fields = new URLSearchParams();
    for (const [name, value] of body) {
      if (typeof value !== 'string') throw new TypeError(`Form field "${name}" is a file: send the form as multipart/form-data.`);
      fields.append(name, value);
    }
    return { bytes: new TextEncoder().encode(fields.toString()) };
  }
  // The platform's own multipart encoder: boundary, part headers and file names as fetch sends them.
  const multipart = new Response(body);
  return { bytes: new Uint8Array(await multipart.arrayBuffer()), type: multipart.headers.get('content-type') ?? undefined };
}

/** `init.headers` as lower-case name/value pairs. */
export function headerPairs(fields: HeaderFields | undefined): Array<[string, string]> {
  if (fields === undefined) return [];
  const pairs: Array<[string, string]> = [];
  if (fields instanceof Headers) {
    for (const [name, value] of fields) pairs.push([name, value]);
  } else if (Array.isArray(fields)) {
    for (const [name, value] of fields as ReadonlyArray<readonly [string, string]>) pairs.push([name.toLowerCase(), value]);
  } else {
    for (const [name, value] of Object.entries(fields as Record<string, string | readonly string[] | undefined>)) {
      if (value === undefined) continue;
      for (const one of typeof value === 'string' ? [value] : value) pairs.push([name.toLowerCase(), one]);
    }
  }
  return pairs;
}

/** `path` with `query` appended (`?` or `&`), the path itself left exactly as written. */
export function withQuery(path: string, query: TestRequestInit['query']): string {
  if (query === undefined) return path;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    for (const one of Array.isArray(value) ? value : [value]) params.append(name, String(one));
  }
  const encoded = params.toString();
  if (encoded === '') return path;
  return `${path}${path.includes('?') ? '&' : '?'}${encoded}`;
}
