import { ClientGoneError, HeaderBag, logAt, Request, type HttpKernelInterface, type Response } from '@switchboard/http-kernel';
import { describeError, statusText } from '@switchboard/http-kernel/internal';
import { resolveAdapterOptions, type NodeAdapterOptions } from '../adapter-options.js';
import { InvalidRequestError } from '../request/invalid-request-error.js';
import { releaseUnsentBody } from '../response/unsent-body.js';
import { FetchBody } from './fetch-body.js';
import { InFlightFetches } from './in-flight-fetches.js';

export interface FetchHandlerOptions extends Pick<NodeAdapterOptions, 'bodyLimit' | 'bodyTimeout' | 'baseUrl' | 'trustedHosts' | 'logger'> {
  /**
   * The client address, when the runtime knows it (fetch requests carry none): Deno's
   * `info.remoteAddr.hostname`, Bun's `server.requestIP(request)?.address`, a trusted edge's header.
   * Without one a request's `clientIp` is `UNKNOWN_CLIENT_IP` (`::`), and the first such request
   * logs a warning.
   */
  clientIp?: (request: globalThis.Request) => string | undefined;
  /**
   * Where to hand the `kernel.terminate` work so the runtime keeps it alive after answering
   * (`ctx.waitUntil` on workers). Without it, terminate runs once the body was fully read.
   */
  waitUntil?: (work: Promise<unknown>) => void;
}

export interface FetchHandler {
  (request: globalThis.Request): Promise<globalThis.Response>;
  /**
   * Starts a shutdown: from now on new requests are answered 503, and the promise resolves once
   * no request is in flight (each answered, its body sent and its `kernel.terminate` finished).
   */
  drain(): Promise<void>;
}

/**
 * The `clientIp` of a request whose runtime gave no address: IPv6's unspecified address, which no
 * client sends from and no rule reads as loopback, local or a trusted proxy. Every such request
 * shares it, so a limit keyed by address holds them all together rather than none of them.
 */
export const UNKNOWN_CLIENT_IP = '::';

/**
 * The kernel as a WHATWG fetch handler, `(Request) => Promise<Response>`, for runtimes built on
 * fetch (Deno, Bun, workers) or `@hono/node-server`-style bridges. The URL is the runtime's
 * already-parsed absolute URL, so its path is as the URL parser normalised it.
 */
export function createFetchHandler(kernel: HttpKernelInterface, options: FetchHandlerOptions = {}): FetchHandler {
  const resolved = resolveAdapterOptions(options);
  const limits = { maxBytes: resolved.bodyLimit, timeoutMs: resolved.bodyTimeout };
  const logger = resolved.logger;
  let warnedOfUnknownClient = false;
  const clientIpOf = (incoming: globalThis.Request): string => {
    const address = options.clientIp?.(incoming);
    if (address !== undefined && address !== '') return address;
    if (!warnedOfUnknownClient) {
      warnedOfUnknownClient = true;
      logger.warn(
        { clientIp: UNKNOWN_CLIENT_IP },
        `The fetch handler got no client address (pass its clientIp option); such requests have clientIp "${UNKNOWN_CLIENT_IP}".`,
      );
    }
    return UNKNOWN_CLIENT_IP;
  };

  const inFlight = new InFlightFetches();
  const handle = async (incoming: globalThis.Request): Promise<globalThis.Response> => {
    if (inFlight.draining) return plainResponse(503, 'The server is shutting down.');
    const end = inFlight.begin();
    try {
      return await answer(incoming, end);
    } catch (error) {
      end();
      throw error;
    }
  };
  const answer = async (incoming: globalThis.Request, end: () => void): Promise<globalThis.Response> => {
    const url = new URL(incoming.url);
    try {
      resolved.trustedHosts?.check(url.hostname);
    } catch (error) {
      if (!(error instanceof InvalidRequestError)) throw error;
      logger.info({ status: error.status }, `Request refused before the kernel: ${error.message}`);
      end();
      return plainResponse(error.status, error.message);
    }
    const origin = resolved.origin;
    const scheme = origin?.scheme ?? (url.protocol === 'https:' ? 'https' : 'http');
    const declared = incoming.headers.get('content-length');
    const cancellation = new FetchRequestCancellation(incoming);
    const request = new Request({
      method: incoming.method,
      scheme,
      host: origin?.host ?? url.hostname,
      ...(origin !== null ? { port: origin.port } : url.port === '' ? {} : { port: Number(url.port) }),
      path: url.pathname,
      query: url.search.slice(1),
      headers: new HeaderBag(incoming.headers),
      clientIp: clientIpOf(incoming),
      protocolVersion: '1.1',
      body: incoming.body === null ? null : new FetchBody(incoming.body, declared === null ? undefined : Number(declared), limits),
      signal: cancellation,
    });
    const response = await kernel.handle(request);

    let terminated = false;
    // `finished` is known only for a streamed body (read to its end, or cancelled by the runtime
    // when its client left); text and bytes are handed to the runtime whole, which tells nothing.
    const terminate = (finished?: boolean): void => {
      if (terminated) return;
      terminated = true;
      if (kernel.terminate === undefined) return end();
      const work = kernel
        .terminate(request, response, finished)
        .catch((error: unknown) => {
          logAt(logger, 'CRITICAL', { err: error }, `kernel.terminate failed: ${describeError(error)}`);
        })
        .finally(end);
      options.waitUntil?.(work);
    };
    const noBody = incoming.method === 'HEAD' || response.isEmpty;
    if (noBody) releaseUnsentBody(response.body, logger);
    const body = noBody ? null : toBodyInit(response.body, terminate, () => cancellation.clientGone());
    if (options.waitUntil !== undefined || !(body instanceof ReadableStream)) setTimeout(() => terminate(), 0);
    return new globalThis.Response(body, { status: response.status, headers: toHeaders(response) });
  };
  return Object.assign(handle, { drain: () => inFlight.drain() });
}

/** The short plain-text answer the node adapter gives to what never reaches the kernel. */
function plainResponse(status: number, message: string): globalThis.Response {
  return new globalThis.Response(`${status} ${statusText(status)}: ${message}\n`, {
    status,
    headers: { 'content-type': 'text/plain; charset=UTF-8', 'cache-control': 'no-store' },
  });
}

function toHeaders(response: Response): Headers {
  const headers = new Headers();
  for (const [name, values] of response.headers) for (const value of values) headers.append(name, value);
  return headers;
}

/**
 * A request's `signal` under the fetch handler: the incoming request's own (the runtime fires it
 * when its client leaves), or a cancel of the response body by whoever reads it. Made on first use,
 * and only then is the incoming signal read: Deno warns of its legacy abort behaviour once a
 * request whose signal was read is answered.
 */
class FetchRequestCancellation {
  #controller: AbortController | undefined;
  #signal: AbortSignal | undefined;

  constructor(private readonly incoming: globalThis.Request) {}

  get signal(): AbortSignal {
    this.#controller ??= new AbortController();
    return (this.#signal ??= AbortSignal.any([this.incoming.signal, this.#controller.signal]));
  }

  clientGone(): void {
    this.#controller?.abort(new ClientGoneError());
  }
}

/**
 * Text and bytes as they are; a stream as a ReadableStream that reports its end (`onDone(true)`;
 * false when it was cancelled or failed) and pulls nothing before a reader asks: a body nobody
 * reads starts no work (opens no file).
 */
function toBodyInit(
  body: Response['body'],
  onDone: (finished: boolean) => void,
  onCancel: () => void,
): ConstructorParameters<typeof globalThis.Response>[0] {
  if (body === null || typeof body === 'string' || body instanceof Uint8Array) return body;
  const encoder = new TextEncoder();
  const iterator = body[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = await iterator.next();
          if (next.done) {
            controller.close();
            onDone(true);
          } else {
            controller.enqueue(typeof next.value === 'string' ? encoder.encode(next.value) : next.value);
          }
        } catch (error) {
          controller.error(error);
          onDone(false);
        }
      },
      async cancel() {
        onCancel();
        onDone(false);
        await iterator.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}
