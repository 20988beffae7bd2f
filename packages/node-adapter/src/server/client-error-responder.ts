import type { Duplex } from 'node:stream';
import { statusText } from '@switchboard/http-kernel';

/** Node's parser error codes that mean "your headers are too big". */
const HEADER_OVERFLOW = 'HPE_HEADER_OVERFLOW';
const REQUEST_TIMEOUT = 'ERR_HTTP_REQUEST_TIMEOUT';

/**
 * Answers what Node's HTTP/1 parser rejects before any request exists (a malformed request line,
 * headers over `maxHeaderSize`, headers not received in time) with a short plain response and
 * closes the connection: 431 for oversized headers, 408 for a timeout, 400 otherwise. Nothing of
 * the request or the error is echoed back.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  // Node keeps the response being written on the socket; if it started, raw bytes would corrupt it.
  const inProgress = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inProgress?.headersSent === true) {
    socket.destroy();
    return;
  }
  const status = error.code === HEADER_OVERFLOW ? 431 : error.code === REQUEST_TIMEOUT ? 408 : 400;
  const reason = statusText(status);
  const body = `${status} ${reason}\n`;
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\n` +
      'Content-Type: text/plain; charset=UTF-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Cache-Control: no-store\r\n' +
      'Connection: close\r\n\r\n' +
      body,
  );
}
