import { logAt, describeError, type Logger, type Response } from '@switchboard/http-kernel';
import { destroyResponse, isGone, type NodeServerResponse } from './node-response.js';

/** Headers that describe an HTTP/1 connection; HTTP/2 forbids them (RFC 9113 §8.2.2). */
const CONNECTION_HEADERS = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade'] as const;

type StreamBody = AsyncIterable<Uint8Array | string>;

/**
 * Writes a kernel `Response` to a node response: status, every header (multi-valued ones as
 * several lines), then the body. Text and bytes go out in one write with their `Content-Length`;
 * a stream is written chunk by chunk, waiting for `drain` when the client reads slower than we
 * produce, and stops when the client goes away. 1xx, 204 and 304 carry no body, and neither does
 * the answer to HEAD (which keeps the headers, `Content-Length` included, that GET would get).
 *
 * Returns a promise only for a streamed body.
 */
export function writeResponse(
  res: NodeServerResponse,
  response: Response,
  isHead: boolean,
  http2: boolean,
  logger: Logger,
): void | Promise<void> {
  const headers = response.headers.toObject();
  if (http2) for (const name of CONNECTION_HEADERS) delete headers[name];
  const status = response.status;
  const body = response.body;

  if (response.isEmpty) {
    delete headers['transfer-encoding'];
    if (status !== 304) delete headers['content-length'];
    res.writeHead(status, headers);
    res.end();
    return;
  }
  if (body === null || typeof body === 'string' || body instanceof Uint8Array) {
    const length = body === null ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
    // A HEAD response built by the application may state the length of the body GET would send.
    if (!isHead || headers['content-length'] === undefined) headers['content-length'] = String(length);
    delete headers['transfer-encoding'];
    res.writeHead(status, headers);
    if (isHead || length === 0 || body === null) res.end();
    else (res as { end(chunk: string | Uint8Array): void }).end(body);
    return;
  }
  res.writeHead(status, headers);
  if (isHead) {
    res.end();
    return;
  }
  return pipeBody(res, body, logger);
}

async function pipeBody(res: NodeServerResponse, body: StreamBody, logger: Logger): Promise<void> {
  try {
    for await (const chunk of body) {
      if (isGone(res)) return;
      // The compat types differ between HTTP/1 and HTTP/2 only in overloads; both take a chunk.
      if (!(res as { write(chunk: Uint8Array | string): boolean }).write(chunk)) await drained(res);
    }
    if (!isGone(res)) res.end();
  } catch (error) {
    // Headers are out: the only honest signal left is to cut the response short.
    logAt(logger, 'CRITICAL', { exception: error }, `The response body stream failed: ${describeError(error)}`);
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
