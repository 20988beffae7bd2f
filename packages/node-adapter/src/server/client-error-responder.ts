import type { IncomingMessage } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { statusText } from '@switchboard/http-kernel/internal';
import { writePlainResponse } from '../response/plain-response.js';

/** Node's parser error codes that mean "your headers are too big". */
const HEADER_OVERFLOW = 'HPE_HEADER_OVERFLOW';
const REQUEST_TIMEOUT = 'ERR_HTTP_REQUEST_TIMEOUT';

/**
 * Answers what Node's HTTP/1 parser rejects before any request exists (a malformed request line,
 * headers over `maxHeaderSize`, headers not received in time) with a short plain response and
 * closes the connection: 431 for oversized headers, 408 for a timeout, 400 otherwise. Nothing of
 * the request or the error is echoed back.
 */
export function answerClientError(
  error: Error & { code?: string },
  socket: Duplex,
  extraHeaders: Readonly<Record<string, string>> = {},
): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  // Node keeps the response being written on the socket; if it started, raw bytes would corrupt
  // it. What was written still goes out before the connection closes (it may be a whole answer).
  const inProgress = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  if (inProgress?.headersSent === true) {
    (socket as Socket).destroySoon();
    return;
  }
  const status = error.code === HEADER_OVERFLOW ? 431 : error.code === REQUEST_TIMEOUT ? 408 : 400;
  socket.end(rawPlainResponse(status, `${status} ${statusText(status)}\n`, extraHeaders));
}

const CONNECT_REFUSED = 'This server is no proxy: CONNECT is not supported.';

/**
 * `CONNECT` asks for a tunnel, which an origin server does not offer: 501 (RFC 9110 §9.1, a
 * method the server does not implement), then the connection is closed. Node hands HTTP/1
 * CONNECT requests over as a raw socket (`'connect'`), HTTP/2 ones as a request and response.
 */
export function answerConnect(
  ...args: [req: IncomingMessage, socket: Duplex, head: Buffer] | [req: Http2ServerRequest, res: Http2ServerResponse]
): void {
  const [, target] = args;
  if ('stream' in target) {
    writePlainResponse(target, 501, CONNECT_REFUSED, true);
    return;
  }
  const socket = target;
  socket.once('finish', () => socket.destroy());
  socket.end(rawPlainResponse(501, `501 ${statusText(501)}: ${CONNECT_REFUSED}\n`));
}

function rawPlainResponse(status: number, body: string, extraHeaders: Readonly<Record<string, string>> = {}): string {
  let extra = '';
  for (const [name, value] of Object.entries(extraHeaders)) extra += `${name}: ${value}\r\n`;
  return (
    `HTTP/1.1 ${status} ${statusText(status)}\r\n` +
    extra +
    'Content-Type: text/plain; charset=UTF-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Cache-Control: no-store\r\n' +
    'Connection: close\r\n\r\n' +
    body
  );
}
