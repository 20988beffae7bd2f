import { ClientGoneError } from '@switchboard/http-kernel';
import { isClosed, isFinished, type NodeServerResponse } from '../response/node-response.js';

/**
 * The source of one request's `signal` under the node adapter. The `AbortController` is made only
 * when the request's code asks for the signal; from then on the cancellation is in `live` (for
 * shutdown to reach) until its response closes. A response that closes before it finished means
 * the client went away.
 */
export class RequestCancellation {
  #controller: AbortController | undefined;

  constructor(
    private readonly res: NodeServerResponse,
    private readonly live: Set<RequestCancellation>,
  ) {}

  get signal(): AbortSignal {
    if (this.#controller !== undefined) return this.#controller.signal;
    const controller = (this.#controller = new AbortController());
    if (isClosed(this.res)) {
      if (!isFinished(this.res)) controller.abort(new ClientGoneError());
      return controller.signal;
    }
    this.live.add(this);
    this.res.once('close', () => {
      this.live.delete(this);
      if (!isFinished(this.res)) controller.abort(new ClientGoneError());
    });
    return controller.signal;
  }

  /** Fires the signal (once made) with `reason`. */
  abort(reason: Error): void {
    this.#controller?.abort(reason);
  }
}
