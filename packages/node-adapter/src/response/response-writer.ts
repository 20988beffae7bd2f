import { logAt, type HeaderBag, type Logger, type Response } from '@switchboard/http-kernel';
import { describeError } from '@switchboard/http-kernel/internal';
import { releaseUnsentBody } from './unsent-body.js';
import { destroyResponse, endResponse, isGone, type EndGate, type NodeServerResponse } from './node-response.js';

/** Headers that describe an HTTP/1 connection; HTTP/2 forbids them (RFC 9113 §8.2.2). */
const CONNECTION_HEADERS = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade'];

/** Framing headers the writer sets itself, per kind of body. */
const NO_BODY = new Set(['transfer-encoding', 'content-length']);
const NOT_MODIFIED = new Set(['transfer-encoding']);
const SIZED_BODY = NO_BODY;
const STREAMED_BODY = new Set<string>();

type StreamBody = AsyncIterable<Uint8Array | string>;

/**
 * Writes a kernel `Response` to a node response: status, every header (multi-valued ones as
 * several lines), then the body. Text and bytes go out in one write with their `Content-Length`;
 * a stream is written chunk by chunk, waiting for `drain` when the client reads slower than we
 * produce, and stops when the client goes away. 1xx, 204 and 304 carry no body, and neither does
 * the answer to HEAD (which keeps the headers, `Content-Length` included, that GET would get).
 *
 * With `endGate`, everything is written at once but the response ends only when the gate settles
 * (its request body is still arriving). Returns a promise only for a streamed body.
 */
export function writeResponse(
  res: NodeServerResponse,
  response: Response,
  isHead: boolean,
  http2: boolean,
  logger: Logger,
  endGate?: EndGate,
): void | Promise<void> {
  const status = response.status;
  const body = response.body;

  if (response.isEmpty) {
    // A 304 keeps the Content-Length the full response would have had.
    writeHead(res, status, response.headers, status === 304 ? NOT_MODIFIED : NO_BODY, undefined, http2);
    endResponse(res, undefined, endGate);
    releaseUnsentBody(body, logger);
    return;
  }
  if (body === null || typeof body === 'string' || body instanceof Uint8Array) {
    const length = body === null ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
    // A HEAD response built by the application may state the length of the body GET would send.
    const declared = isHead ? response.headers.get('content-length') : undefined;
    writeHead(res, status, response.headers, SIZED_BODY, declared ?? String(length), http2);
    endResponse(res, isHead || length === 0 || body === null ? undefined : body, endGate);
    return;
  }
  writeHead(res, status, response.headers, STREAMED_BODY, undefined, http2);
  if (isHead) {
    endResponse(res, undefined, endGate);
    releaseUnsentBody(body, logger);
    return;
  }
  return pipeBody(res, body, logger, endGate);
}

/**
 * HTTP/1 gets node's flat raw list, which it writes without building an object first; HTTP/2
 * gets an object without the connection-specific headers.
 */
function writeHead(
  res: NodeServerResponse,
  status: number,
  headers: HeaderBag,
  framing: ReadonlySet<string>,
  contentLength: string | undefined,
  http2: boolean,
): void {
  if (http2) {
    const fields: Record<string, string | string[]> = {};
    for (const [name, values] of headers) {
      if (!framing.has(name) && !CONNECTION_HEADERS.includes(name)) fields[name] = values.length === 1 ? values[0]! : values;
    }
    if (contentLength !== undefined) fields['content-length'] = contentLength;
    res.writeHead(status, fields);
    return;
  }
  const lines = headers.toSentList(framing, contentLength === undefined ? undefined : 'content-length', contentLength);
  (res as { writeHead(status: number, headers: readonly string[]): unknown }).writeHead(status, lines);
}

async function pipeBody(res: NodeServerResponse, body: StreamBody, logger: Logger, endGate: EndGate | undefined): Promise<void> {
  try {
    for await (const chunk of body) {
      if (isGone(res)) return;
      // The compat types differ between HTTP/1 and HTTP/2 only in overloads; both take a chunk.
      if (!(res as { write(chunk: Uint8Array | string): boolean }).write(chunk)) await drained(res);
    }
    if (!isGone(res)) endResponse(res, undefined, endGate);
  } catch (error) {
    // Headers are out: the only honest signal left is to cut the response short.
    logAt(logger, 'CRITICAL', { err: error }, `The response body stream failed: ${describeError(error)}`);
    destroyResponse(res);
  }
}

function drained(res: NodeServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
