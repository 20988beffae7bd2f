import { statusText } from '@switchboard/http-kernel/internal';
import { destroyResponse, endResponse, type EndGate, type NodeServerResponse } from './node-response.js';

/**
 * A short plain-text answer for what never reached the kernel (an invalid Host, a failure of the
 * kernel itself): the status line's reason and one sentence, no stack, and the connection closed
 * on HTTP/1 since the state of the request is unknown.
 */
export function writePlainResponse(
  res: NodeServerResponse,
  status: number,
  message: string,
  http2: boolean,
  endGate?: EndGate,
  extraHeaders?: Readonly<Record<string, string>>,
): void {
  if (res.headersSent) {
    destroyResponse(res);
    return;
  }
  const { body, headers } = plainAnswer(status, message, extraHeaders);
  if (!http2) headers['connection'] = 'close';
  res.writeHead(status, headers);
  endResponse(res, body, endGate);
}

/** The body and headers of a plain answer (without `Connection`), also what an in-process client shows for it. */
export function plainAnswer(
  status: number,
  message: string,
  extraHeaders: Readonly<Record<string, string>> = {},
): { body: string; headers: Record<string, string> } {
  const body = `${status} ${statusText(status)}: ${message}\n`;
  return {
    body,
    headers: {
      ...extraHeaders,
      'content-type': 'text/plain; charset=UTF-8',
      'content-length': String(Buffer.byteLength(body)),
      'cache-control': 'no-store',
    },
  };
}
