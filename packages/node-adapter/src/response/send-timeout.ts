import type { Logger } from '@switchboard/http-kernel';
import { destroyResponse, isGone, type NodeServerResponse } from './node-response.js';

/**
 * Bounds how long a response's written bytes may wait for the client to take them in. Only a
 * response that may wait is watched: one whose body streams, or whose written bytes did not all
 * go out at once. A body handed over whole is finished once written, and its idle keep-alive
 * connection is then node's to close (`keepAliveTimeout`), so most answers arm no timer. It uses
 * node's idle timer of the connection (HTTP/1) or stream (HTTP/2), which restarts with every byte
 * read and every write the client took in (a large write counts each part that went out), so a
 * slow client that keeps reading is never cut. When the timer runs out while output is still
 * queued, the client has stopped reading: the response is cut, which closes its connection (HTTP/1)
 * or resets its stream (HTTP/2) and releases what it held open (a file, an event stream). A
 * response with nothing queued (the application still working, an event stream between two
 * events) is left alone.
 */
export class SendTimeout {
  /** Responses watched from their start (pipelined ones, few), so that none is watched twice. */
  readonly #watchedFromStart = new WeakSet<NodeServerResponse>();

  constructor(
    private readonly ms: number,
    private readonly logger: Logger,
  ) {}

  /**
   * Watches `res` until it finished, when it may wait for its client: `streamed` (its body is
   * written over time), or bytes still queued. Call once per response, right after handing its
   * body to node.
   */
  watchIfWaiting(res: NodeServerResponse, streamed: boolean): void {
    if ((streamed || queuedBytes(res) > 0) && !this.#watchedFromStart.has(res)) this.#watch(res);
  }

  /**
   * Watches `res` from before it is handled: for a response queued behind another on its HTTP/1
   * connection (pipelined). The connection's timer is the one the response before it set, and when
   * it runs out node closes the connection unless the response it then finds is watched.
   */
  watchFromStart(res: NodeServerResponse): void {
    this.#watchedFromStart.add(res);
    this.#watch(res);
  }

  #watch(res: NodeServerResponse): void {
    res.setTimeout(this.ms, () => this.#expired(res));
  }

  #expired(res: NodeServerResponse): void {
    const http2 = 'stream' in res;
    const queued = queuedBytes(res);
    if (queued === 0 || isGone(res)) return;
    // A client's doing, not a server fault: below ERROR, so no client can fill the error log at will.
    this.logger.info(
      { sendTimeout: this.ms, queuedBytes: queued, protocol: http2 ? 'HTTP/2' : 'HTTP/1' },
      `Send timeout: the client took in nothing of its response for ${this.ms} ms; its ${http2 ? 'stream was reset' : 'connection was closed'} (${queued} bytes unsent).`,
    );
    destroyResponse(res);
  }
}

/** Bytes written to `res` that its client has not taken in yet (still in node or its stream). */
function queuedBytes(res: NodeServerResponse): number {
  return 'stream' in res ? res.stream.writableLength : res.writableLength;
}
