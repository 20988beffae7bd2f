/** A document fetched from an identity provider, with what its headers say about caching. */
export interface FetchedJson {
  readonly body: unknown;
  readonly cacheControl: string | null;
  readonly age: string | null;
}

export interface FetchJsonOptions {
  /** Milliseconds before the request is given up. */
  readonly timeout: number;
  /** Larger bodies are refused: a key set or discovery document is a few kilobytes. */
  readonly maxBytes: number;
}

/**
 * GETs a JSON document: 200 only, no redirects (a key set's address is configuration, not
 * something a response may change), bounded in time and size. Throws an `Error` whose message is a
 * fixed phrase plus the status: nothing from the body reaches a log.
 */
export async function fetchJson(url: string, options: FetchJsonOptions): Promise<FetchedJson> {
  const response = await fetch(url, {
    headers: { accept: 'application/json' },
    redirect: 'error',
    signal: AbortSignal.timeout(options.timeout),
  });
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new Error(`The identity provider answered ${response.status}.`);
  }
  const text = await readBounded(response, options.maxBytes);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error('The identity provider answered with something other than JSON.');
  }
  return { body, cacheControl: response.headers.get('cache-control'), age: response.headers.get('age') };
}

async function readBounded(response: Response, maxBytes: number): Promise<string> {
  const reader = response.body?.getReader();
  if (reader === undefined) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new Error(`The identity provider's document is larger than ${maxBytes} bytes.`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** `https:` anywhere, `http:` on a loopback host only (a test issuer, a local development provider). */
export function assertFetchableUrl(url: string, what: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`The ${what} "${url}" is not a URL.`);
  }
  const loopback = ['127.0.0.1', '[::1]', 'localhost'].includes(parsed.hostname);
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && loopback)) {
    throw new TypeError(`The ${what} "${url}" must use https (http is allowed on 127.0.0.1, ::1 and localhost only).`);
  }
  return parsed;
}
