import type { ServerResponse } from 'node:http';
import type { Http2ServerResponse } from 'node:http2';

/** A response as node:http (HTTP/1.x) or the node:http2 compatibility API presents it. */
export type NodeServerResponse = ServerResponse | Http2ServerResponse;

/** Whether the client can no longer receive anything on this response. */
export function isGone(res: NodeServerResponse): boolean {
  return 'stream' in res ? res.stream.destroyed : res.destroyed;
}

/** The response ended or its stream was torn down, so 'close' will not come again. */
export function isClosed(res: NodeServerResponse): boolean {
  if ('stream' in res) return res.stream.closed;
  return res.closed || res.destroyed;
}

/** The whole response went out (node emitted 'finish'); false when the exchange closed before that. */
export function isFinished(res: NodeServerResponse): boolean {
  return 'stream' in res ? res.stream.writableFinished : res.writableFinished;
}

/** Ends the exchange abruptly: the client sees a truncated response or a reset stream. */
export function destroyResponse(res: NodeServerResponse, error?: Error): void {
  if ('stream' in res) res.stream.destroy(error);
  else res.destroy(error);
}

/**
 * Settles when a response may end: it was written in full but its request body is still
 * arriving (see `discardUnreadBody`). `false`: a limit was reached, so the connection is closed
 * once the response has gone out.
 */
export type EndGate = Promise<boolean>;

/** Ends `res` with `chunk`, at once or when `gate` says so (the chunk goes out at once either way). */
export function endResponse(res: NodeServerResponse, chunk: string | Uint8Array | undefined, gate: EndGate | undefined): void {
  const writable = res as { write(chunk: string | Uint8Array): boolean; end(chunk?: string | Uint8Array, callback?: () => void): void };
  if (gate === undefined) {
    writable.end(chunk);
    return;
  }
  // Gates exist for HTTP/1 only.
  if (chunk === undefined) (res as ServerResponse).flushHeaders();
  else writable.write(chunk);
  // Node detaches the socket from the response when it finishes, so it is taken now.
  const socket = res.socket;
  void gate.then((drained) => (drained ? writable.end() : writable.end(undefined, () => socket?.destroy())));
}
