import { validateHeaderName, validateHeaderValue } from 'node:http';
import { Readable } from 'node:stream';
import { logAt, type HttpKernelInterface, type Logger, type Request, type Response } from '@switchboard/http-kernel';
import { describeError, handleEagerlyWith } from '@switchboard/http-kernel/internal';
import {
  IncomingBody,
  InvalidRequestError,
  NodeRequestFactory,
  plainAnswer,
  resolveAdapterOptions,
  type NodeAdapterOptions,
  type RequestHead,
} from '@switchboard/node-adapter';
import { wireResponse } from './wire-response.js';
import { PendingWork, type OutgoingRequest, type ReceivedResponse, type Transport } from './transport.js';

const DONE = Promise.resolve();

/**
 * Hands requests to the kernel in this process, through the node adapter's own request factory
 * (the same Host, target, framing, trusted-proxy and body-limit rules), and turns its responses
 * into what the adapter would write: the same plain answers for refused requests, the same
 * framing headers, no body for HEAD, 204 and 304. `kernel.terminate` runs after each response
 * on a later turn of the event loop, as the adapter runs it.
 */
export class InProcessTransport implements Transport {
  readonly #kernel: HttpKernelInterface;
  readonly #factory: NodeRequestFactory;
  readonly #logger: Logger;
  readonly #clientIp: string;
  /** The adapter's `answerHeaders`, on its plain answers here too. */
  readonly #answerHeaders: Readonly<Record<string, string>>;
  readonly #terminations = new PendingWork();
  readonly serverUrl = null;

  constructor(kernel: HttpKernelInterface, adapterOptions: NodeAdapterOptions, clientIp: string) {
    const resolved = resolveAdapterOptions(adapterOptions);
    this.#kernel = kernel;
    this.#factory = new NodeRequestFactory(resolved);
    this.#logger = resolved.logger;
    this.#clientIp = clientIp;
    this.#answerHeaders = resolved.answerHeaders;
  }

  async send(outgoing: OutgoingRequest): Promise<ReceivedResponse> {
    const rawHeaders: string[] = [];
    for (const [name, value] of outgoing.headers) {
      // What node's HTTP client refuses to send never reaches a server either.
      validateHeaderName(name);
      validateHeaderValue(name, value);
      rawHeaders.push(name, value);
    }
    const https = outgoing.url.protocol === 'https:';
    const head: RequestHead = {
      method: outgoing.method,
      url: outgoing.target,
      httpVersion: '1.1',
      httpVersionMajor: 1,
      httpVersionMinor: 1,
      rawHeaders,
      socket: { encrypted: https, remoteAddress: this.#clientIp, localAddress: '127.0.0.1', localPort: https ? 443 : 80 },
    };
    let request: Request;
    try {
      request = this.#factory.createFromHead(head, outgoing.body === null ? null : Readable.from([Buffer.from(outgoing.body)]));
    } catch (error) {
      if (error instanceof InvalidRequestError) return plain(error.status, error.message, null, this.#answerHeaders);
      logAt(this.#logger, 'CRITICAL', { err: error }, `The request could not be read: ${describeError(error)}`);
      return plain(500, 'The server could not read this request.', null, this.#answerHeaders);
    }
    if (request.rawPath === '*') {
      return {
        status: 204,
        headers: new Headers({ 'cache-control': 'no-store' }),
        body: new Uint8Array(0),
        request: null,
        terminated: DONE,
      };
    }
    let response: Response;
    try {
      response = await handleEagerlyWith(this.#kernel, request);
    } catch (error) {
      logAt(this.#logger, 'CRITICAL', { err: error }, `The kernel failed to answer: ${describeError(error)}`);
      return plain(500, 'The server could not answer this request.', request, this.#answerHeaders);
    }
    if (request.body instanceof IncomingBody && request.body.closesConnectionWith(response.status))
      response.headers.set('connection', 'close');
    let received: ReceivedResponse;
    try {
      const wire = await wireResponse(response, outgoing.method === 'HEAD');
      received = { ...wire, request, terminated: this.#terminate(request, response) };
    } catch (error) {
      logAt(this.#logger, 'CRITICAL', { err: error }, `The response could not be written: ${describeError(error)}`);
      received = {
        ...plain(500, 'The response could not be written.', request, this.#answerHeaders),
        terminated: this.#terminate(request, response),
      };
    }
    return received;
  }

  #terminate(request: Request, response: Response): Promise<void> {
    const kernel = this.#kernel;
    if (kernel.terminate === undefined) return DONE;
    if (kernel.dispatcher !== undefined && !kernel.dispatcher.hasListeners('kernel.terminate')) return DONE;
    const running = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      try {
        await kernel.terminate!(request, response);
      } catch (error) {
        logAt(this.#logger, 'CRITICAL', { err: error }, `kernel.terminate failed: ${describeError(error)}`);
      }
    });
    this.#terminations.add(running);
    return running;
  }

  settled(): Promise<void> {
    return this.#terminations.settled();
  }

  close(): Promise<void> {
    return this.settled();
  }
}

/** The adapter's plain answer to a request it refused or could not handle. */
function plain(status: number, message: string, request: Request | null, extraHeaders: Readonly<Record<string, string>>): ReceivedResponse {
  const answer = plainAnswer(status, message, extraHeaders);
  const headers = new Headers(answer.headers);
  headers.set('connection', 'close');
  return { status, headers, body: new TextEncoder().encode(answer.body), request, terminated: DONE };
}
