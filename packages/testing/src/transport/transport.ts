import type { Request } from '@switchboard/http-kernel';

/** A request ready to go: `target` is the path and query exactly as they are sent. */
export interface OutgoingRequest {
  readonly method: string;
  /** Scheme, host and port the request is addressed to (what `Host` and the connection say). */
  readonly url: URL;
  readonly target: string;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body: Uint8Array | null;
}

/** One answer as received, with what the kernel saw and when its `kernel.terminate` finished. */
export interface ReceivedResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Uint8Array;
  readonly request: Request | null;
  /** Settles once `kernel.terminate` ran for this request (at once when nothing listens to it). */
  readonly terminated: Promise<void>;
}

/** How a client reaches the kernel: in process, or over a socket through `serve()`. */
export interface Transport {
  /** The served origin (`http://127.0.0.1:<port>`) over a socket; `null` in process. */
  readonly serverUrl: string | null;
  send(request: OutgoingRequest): Promise<ReceivedResponse>;
  /** Resolves once every `kernel.terminate` scheduled so far has run. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/** Tracks promises until they settle, for `settled()`. */
export class PendingWork {
  readonly #pending = new Set<Promise<void>>();

  add(work: Promise<void>): void {
    this.#pending.add(work);
    void work.finally(() => this.#pending.delete(work));
  }

  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }
}
