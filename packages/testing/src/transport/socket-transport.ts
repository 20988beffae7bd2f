import http from 'node:http';
import type { HttpKernelInterface, Request, RequestType, Response } from '@switchboard/http-kernel';
import { attempt } from '@switchboard/http-kernel/internal';
import { serve, type NodeAdapterOptions, type RunningServer } from '@switchboard/node-adapter';
import { PendingWork, type OutgoingRequest, type ReceivedResponse, type Transport } from './transport.js';

/** Names each request on the wire so the kernel's `Request` can be handed back; removed before the kernel reads headers. */
const REQUEST_ID_HEADER = 'x-switchboard-test-request';

interface Exchange {
  request: Request | null;
  terminated: Promise<void>;
  markTerminated: () => void;
}

/**
 * Sends requests with node's HTTP client to the kernel served by the node adapter's `serve()` on
 * 127.0.0.1 (any free port), over kept-alive connections: what a test gets when the wire matters.
 * The kernel is wrapped only to learn which `Request` each exchange produced and when its
 * `kernel.terminate` finished.
 */
export class SocketTransport implements Transport {
  readonly #running: RunningServer;
  readonly #agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  readonly #exchanges: Map<string, Exchange>;
  readonly #terminations = new PendingWork();
  #nextId = 0;

  private constructor(running: RunningServer, exchanges: Map<string, Exchange>) {
    this.#running = running;
    this.#exchanges = exchanges;
  }

  static async start(kernel: HttpKernelInterface, adapterOptions: NodeAdapterOptions): Promise<SocketTransport> {
    const exchanges = new Map<string, Exchange>();
    const running = await serve(observedKernel(kernel, exchanges), { ...adapterOptions, host: '127.0.0.1', port: 0, handleSignals: false });
    return new SocketTransport(running, exchanges);
  }

  /** `http://127.0.0.1:<port>` */
  get serverUrl(): string {
    return this.#running.url;
  }

  async send(outgoing: OutgoingRequest): Promise<ReceivedResponse> {
    try {
      return await this.#exchange(outgoing);
    } catch (error) {
      // The server closed a kept-alive connection just as this request went out on it: nothing
      // reached the server, so the request is sent once more, on a new connection.
      if (!(error instanceof StaleConnectionError)) throw error;
      return this.#exchange(outgoing);
    }
  }

  #exchange(outgoing: OutgoingRequest): Promise<ReceivedResponse> {
    const id = String(++this.#nextId);
    let markTerminated!: () => void;
    const terminated = new Promise<void>((resolve) => (markTerminated = resolve));
    const exchange: Exchange = { request: null, terminated, markTerminated };
    this.#exchanges.set(id, exchange);
    this.#terminations.add(terminated);
    const headers: string[] = [];
    for (const [name, value] of outgoing.headers) headers.push(name, value);
    headers.push(REQUEST_ID_HEADER, id);
    return new Promise<ReceivedResponse>((resolve, reject) => {
      const sent = http.request(
        {
          host: '127.0.0.1',
          port: this.#running.port,
          method: outgoing.method,
          path: outgoing.target,
          headers,
          // The Host field is the test's (from the client's base URL, or its own headers), not 127.0.0.1.
          setHost: false,
          agent: this.#agent,
        },
        (received) => {
          const chunks: Buffer[] = [];
          received.on('data', (chunk: Buffer) => chunks.push(chunk));
          received.on('error', reject);
          received.on('end', () => {
            const responseHeaders = new Headers();
            const raw = received.rawHeaders;
            for (let i = 0; i < raw.length; i += 2) responseHeaders.append(raw[i]!, raw[i + 1]!);
            this.#exchanges.delete(id);
            // Refused before the kernel: no kernel.terminate will run.
            if (exchange.request === null) exchange.markTerminated();
            resolve({
              status: received.statusCode ?? 0,
              headers: responseHeaders,
              body: Buffer.concat(chunks),
              request: exchange.request,
              terminated,
            });
          });
        },
      );
      sent.on('error', (error: NodeJS.ErrnoException) => {
        this.#exchanges.delete(id);
        exchange.markTerminated();
        const stale = sent.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE') && exchange.request === null;
        reject(stale ? new StaleConnectionError(error) : error);
      });
      sent.end(outgoing.body === null ? undefined : Buffer.from(outgoing.body));
    });
  }

  settled(): Promise<void> {
    return this.#terminations.settled();
  }

  /** Stops the server (after in-flight requests and every `kernel.terminate`) and closes the client's connections. */
  async close(): Promise<void> {
    this.#agent.destroy();
    await this.#running.close();
  }
}

/** A request lost to a kept-alive connection the server had just closed. */
class StaleConnectionError extends Error {
  constructor(cause: Error) {
    super('The kept-alive connection was closed by the server.', { cause });
  }
}

/**
 * `kernel` as the server sees it, plus the bookkeeping above: each main request is filed under its
 * exchange (and loses the id header), and its exchange learns when `kernel.terminate` finished.
 */
function observedKernel(kernel: HttpKernelInterface, exchanges: Map<string, Exchange>): HttpKernelInterface {
  const byRequest = new WeakMap<Request, Exchange>();
  const file = (request: Request): void => {
    const id = request.headers.get(REQUEST_ID_HEADER);
    if (id === undefined) return;
    request.headers.delete(REQUEST_ID_HEADER);
    const exchange = exchanges.get(id);
    if (exchange === undefined) return;
    exchange.request = request;
    byRequest.set(request, exchange);
    if (kernel.terminate === undefined || (kernel.dispatcher !== undefined && !kernel.dispatcher.hasListeners('kernel.terminate'))) {
      exchange.markTerminated();
    }
  };
  // The adapter does not terminate a request whose kernel failed: its exchange is done then.
  const failed = (request: Request, error: unknown): never => {
    byRequest.get(request)?.markTerminated();
    throw error;
  };
  const observed: HttpKernelInterface = {
    handle(request: Request, type?: RequestType, catchErrors?: boolean): Promise<Response> {
      file(request);
      return kernel.handle(request, type, catchErrors).catch((error: unknown) => failed(request, error));
    },
    async terminate(request: Request, response: Response, responseFinished?: boolean): Promise<void> {
      try {
        await kernel.terminate?.(request, response, responseFinished);
      } finally {
        byRequest.get(request)?.markTerminated();
      }
    },
  };
  if (kernel.handleEagerly !== undefined) {
    const eager = kernel.handleEagerly.bind(kernel);
    observed.handleEagerly = (request, type, catchErrors) => {
      file(request);
      return attempt(
        () => eager(request, type, catchErrors),
        (error) => failed(request, error),
      );
    };
  }
  if (kernel.dispatcher !== undefined) Object.assign(observed, { dispatcher: kernel.dispatcher });
  return observed;
}
