import type { ServerResponse } from 'node:http';
import type { Http2ServerResponse } from 'node:http2';

/** A response as node:http (HTTP/1.x) or the node:http2 compatibility API presents it. */
export type NodeServerResponse = ServerResponse | Http2ServerResponse;

/** Whether the client can no longer receive anything on this response. */
export function isGone(res: NodeServerResponse): boolean {
  return 'stream' in res ? res.stream.destroyed : res.destroyed;
}

/** Ends the exchange abruptly: the client sees a truncated response or a reset stream. */
export function destroyResponse(res: NodeServerResponse, error?: Error): void {
  if ('stream' in res) res.stream.destroy(error);
  else res.destroy(error);
}
