import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import {
  logAt,
  ServerShutdownError,
  type HttpKernelInterface,
  type Logger,
  type MaybePromise,
  type Request,
  type Response,
} from '@switchboard/http-kernel';
import { EventStreamResponse } from '@switchboard/http-kernel/sse';
import { describeError, fromThenable, handleEagerlyWith } from '@switchboard/http-kernel/internal';
import { resolveAdapterOptions, type NodeAdapterOptions } from './adapter-options.js';
import { IncomingBody } from './request/incoming-body.js';
import { InvalidRequestError } from './request/invalid-request-error.js';
import { isHttp2, NodeRequestFactory, type NodeIncomingRequest } from './request/node-request-factory.js';
import { RequestCancellation } from './request/request-cancellation.js';
import { declaredOverDiscardLimit, discardUnreadBody, hasBodyInTransit } from './request/unread-body.js';
import { isClosed, isFinished, isGone, type EndGate, type NodeServerResponse } from './response/node-response.js';
import { writePlainResponse } from './response/plain-response.js';
import { writeResponse } from './response/response-writer.js';
import { SendTimeout } from './response/send-timeout.js';

/** Length of the list of responses handed to the kernel at which answered ones are swept out. */
const MIN_SWEEP = 64;

/** A `(req, res)` listener for `http.createServer`, `https.createServer` or `http2.createSecureServer`. */
export type NodeRequestListener = {
  (req: IncomingMessage, res: ServerResponse): void;
  (req: Http2ServerRequest, res: Http2ServerResponse): void;
};

/**
 * Hands node requests to a kernel and writes its responses back. One instance per server; it
 * keeps no per-request state in its fields beyond what shutdown needs (responses not written yet,
 * terminations not run yet).
 */
export class NodeAdapter {
  readonly #kernel: HttpKernelInterface;
  readonly #factory: NodeRequestFactory;
  readonly #logger: Logger;
  readonly #sendTimeout: SendTimeout;
  /**
   * Answered requests whose `kernel.terminate` has not run yet. Every request answered within one
   * turn of the event loop is queued here and looked at from a single `setImmediate` on the next
   * turn, instead of each response getting its own `close` listener, timer and promise.
   */
  #queuedTerminations: TerminationQueue = [];
  /** `kernel.terminate` runs that returned a promise (an async listener), until it settles. */
  readonly #runningTerminations = new Set<Promise<void>>();
  /**
   * Responses the kernel answers later (it returned a promise), for shutdown to answer those not
   * written yet (503); one answered in the turn it arrived is written before shutdown can act.
   * Kept as a list that is swept when it grows, not a Set: adding and deleting every response
   * cost more than the rest of the adapter's bookkeeping (docs/decisions.md).
   */
  #answeredLater: NodeServerResponse[] = [];
  #sweepAt = MIN_SWEEP;
  #closingConnections = false;
  /** Requests whose code asked for their signal, until their response closes (shutdown fires them). */
  readonly #cancellations = new Set<RequestCancellation>();
  /** Event streams being written, which shutdown ends at once (they never end on their own). */
  readonly #eventStreams = new Set<RequestCancellation>();
  /** Added to the answers written here (`answerHeaders`). */
  readonly #answerHeaders: Readonly<Record<string, string>>;

  constructor(kernel: HttpKernelInterface, options: NodeAdapterOptions = {}) {
    const resolved = resolveAdapterOptions(options);
    this.#kernel = kernel;
    this.#factory = new NodeRequestFactory(resolved);
    this.#logger = resolved.logger;
    this.#sendTimeout = new SendTimeout(resolved.sendTimeout, resolved.logger);
    this.#answerHeaders = resolved.answerHeaders;
  }

  /** The listener to give a node server. */
  readonly listener: NodeRequestListener = ((req: NodeIncomingRequest, res: NodeServerResponse) =>
    this.handle(req, res)) as NodeRequestListener;

  /**
   * Handles one request. With `next` (middleware fall-through), a request no route matched is
   * handed to it instead of being answered; see `UnmatchedRequestListener`.
   */
  handle(req: NodeIncomingRequest, res: NodeServerResponse, next?: () => void): void {
    const http2 = isHttp2(req);
    // A timer already running on the connection was set for a response before this one (pipelined).
    if (next === undefined && !http2 && ((req as IncomingMessage).socket.timeout ?? 0) > 0) this.#sendTimeout.watchFromStart(res);
    let request: Request;
    const cancellation = new RequestCancellation(res, this.#cancellations);
    try {
      request = this.#factory.create(req, cancellation);
    } catch (error) {
      if (error instanceof InvalidRequestError) {
        // A client mistake, not a server fault: below ERROR, so no client can fill the error log at will.
        this.#logger.info({ status: error.status }, `Request refused before the kernel: ${error.message}`);
        writePlainResponse(res, error.status, error.message, http2, this.#endGate(req, null, http2), this.#answerHeaders);
        return;
      }
      // A defect here must not take the whole server down with an uncaught exception.
      logAt(this.#logger, 'CRITICAL', { err: error }, `The request could not be read: ${describeError(error)}`);
      writePlainResponse(res, 500, 'The server could not read this request.', http2, this.#endGate(req, null, http2), this.#answerHeaders);
      return;
    }
    if (request.rawPath === '*') {
      answerServerWideOptions(res);
      return;
    }
    if (next !== undefined) request.attributes.set('_fall_through', true);
    // Answered in the same turn when the kernel answers at once; only a kernel that had to wait
    // gets its promise continued (with closures).
    let response: MaybePromise<Response>;
    try {
      response = fromThenable(handleEagerlyWith(this.#kernel, request));
      if (!(response instanceof Promise)) {
        this.#answer(req, res, request, response, http2, next, cancellation);
        return;
      }
    } catch (error) {
      this.#kernelFailed(req, res, request, error, http2);
      return;
    }
    this.#track(res);
    void response
      .then((answer) => this.#answer(req, res, request, answer, http2, next, cancellation))
      .catch((error: unknown) => this.#kernelFailed(req, res, request, error, http2));
  }

  #answer(
    req: NodeIncomingRequest,
    res: NodeServerResponse,
    request: Request,
    response: Response,
    http2: boolean,
    next: (() => void) | undefined,
    cancellation: RequestCancellation,
  ): void {
    if (next !== undefined && request.attributes.get('_unmatched') === true) {
      this.#terminateWhenDone(res, request, response);
      next();
      return;
    }
    if (response instanceof EventStreamResponse) this.#trackEventStream(res, cancellation);
    this.#send(req, res, request, response, http2);
  }

  #trackEventStream(res: NodeServerResponse, cancellation: RequestCancellation): void {
    this.#eventStreams.add(cancellation);
    // Taken now: node detaches the socket from the response when it finishes.
    const socket = 'stream' in res ? null : res.socket;
    res.once('close', () => {
      this.#eventStreams.delete(cancellation);
      // Its headers said keep-alive before shutdown began; the idle connection would hold the server open.
      if (this.#closingConnections) socket?.end();
    });
  }

  #kernelFailed(req: NodeIncomingRequest, res: NodeServerResponse, request: Request, error: unknown, http2: boolean): void {
    logAt(this.#logger, 'CRITICAL', { err: error }, `The kernel failed to answer: ${describeError(error)}`);
    // Already answered: shutdown ran out of time for it (503).
    if (res.headersSent) return;
    writePlainResponse(
      res,
      500,
      'The server could not answer this request.',
      http2,
      this.#endGate(req, request, http2),
      this.#answerHeaders,
    );
  }

  /** From now on, HTTP/1 responses close their connection (graceful shutdown). */
  closeConnectionsAfterResponse(): void {
    this.#closingConnections = true;
  }

  /**
   * Graceful shutdown begins: every event stream being written gets its signal fired with a
   * `ServerShutdownError`, so it sends its last `retry:` hint and ends now rather than at the
   * forced close. Returns how many there were.
   */
  endEventStreams(): number {
    const streams = [...this.#eventStreams];
    for (const cancellation of streams) cancellation.abort(new ServerShutdownError());
    return streams.length;
  }

  /**
   * Shutdown ran out of time: every request still running has its signal fired
   * (`ServerShutdownError`), and those the kernel has not answered yet get a short 503 now (one whose
   * streamed body is still going out is cut). Returns how many were answered.
   */
  answerInFlightRequests(): number {
    for (const cancellation of [...this.#cancellations]) cancellation.abort(new ServerShutdownError());
    const pending = this.#answeredLater.filter((res) => !res.headersSent);
    this.#answeredLater = [];
    for (const res of pending)
      writePlainResponse(res, 503, 'The server is shutting down; please retry.', 'stream' in res, undefined, this.#answerHeaders);
    return pending.length;
  }

  /** Resolves once every scheduled `kernel.terminate` has run. */
  async drain(): Promise<void> {
    while (this.#queuedTerminations.length > 0 || this.#runningTerminations.size > 0) {
      // The queue's own setImmediate was set first, so it has run when this one does.
      if (this.#queuedTerminations.length > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      else await Promise.all([...this.#runningTerminations]);
    }
  }

  #send(req: NodeIncomingRequest, res: NodeServerResponse, request: Request, response: Response, http2: boolean): void {
    // Shutdown already answered it (503).
    if (res.headersSent) {
      this.#terminateWhenDone(res, request, response);
      return;
    }
    // Read before writing: node reports a response ended on a connection already closed as finished.
    const clientLeft = isGone(res);
    const endGate = this.#endGate(req, request, http2);
    if (!http2 && (this.#closingConnections || this.#endsConnection(req, request, response, endGate))) {
      response.headers.set('connection', 'close');
    }
    try {
      // A streamed body settles on its own (errors are logged inside); nothing waits for it here.
      const streaming = writeResponse(res, response, req.method === 'HEAD', http2, this.#logger, endGate);
      this.#sendTimeout.watchIfWaiting(res, streaming !== undefined);
    } catch (error) {
      // Typically a header value the application built with a forbidden character.
      logAt(this.#logger, 'CRITICAL', { err: error }, `The response could not be written: ${describeError(error)}`);
      writePlainResponse(res, 500, 'The response could not be written.', http2, endGate, this.#answerHeaders);
    }
    this.#terminateWhenDone(res, request, response, clientLeft);
  }

  /**
   * Whether an HTTP/1 answer closes its connection because of the request body: a reader gave it up
   * (a limit, a timeout), or it is still arriving unread (`endGate`) and either the answer refuses
   * the request (whichever step refused) or its declared length is over what the discard takes in.
   * Such a connection may well close before the body ends, so it is never promised to another request.
   */
  #endsConnection(req: NodeIncomingRequest, request: Request, response: Response, endGate: EndGate | undefined): boolean {
    if (request.body instanceof IncomingBody && request.body.abandoned) return true;
    return endGate !== undefined && (response.status >= 400 || declaredOverDiscardLimit(req as IncomingMessage));
  }

  #track(res: NodeServerResponse): void {
    const list = this.#answeredLater;
    list.push(res);
    if (list.length < this.#sweepAt) return;
    this.#answeredLater = list.filter((tracked) => !tracked.headersSent);
    this.#sweepAt = Math.max(MIN_SWEEP, 2 * this.#answeredLater.length);
  }

  /**
   * HTTP/1 only: when the answer is ready while the request body still arrives and nobody reads it,
   * the response ends only once the rest is taken in (bounded), so the client can read the answer.
   */
  #endGate(req: NodeIncomingRequest, request: Request | null, http2: boolean): EndGate | undefined {
    if (http2 || (request !== null && request.body === null)) return undefined;
    const incoming = req as IncomingMessage;
    if (!hasBodyInTransit(incoming)) return undefined;
    if (request?.body instanceof IncomingBody && request.body.beingRead) return undefined;
    return discardUnreadBody(incoming);
  }

  /**
   * Runs `kernel.terminate` once the response is finished or the client went away — exactly once,
   * and on a later turn of the event loop so it never delays the next response on the connection.
   * Skipped entirely when the kernel says nobody listens. `clientLeft`: the client had gone before
   * the answer was written, so the response did not finish whatever node says of it.
   */
  #terminateWhenDone(res: NodeServerResponse, request: Request, response: Response, clientLeft = false): void {
    const kernel = this.#kernel;
    if (kernel.terminate === undefined) return;
    if (kernel.dispatcher !== undefined && !kernel.dispatcher.hasListeners('kernel.terminate')) return;
    this.#queueTermination(res, request, response, clientLeft);
  }

  #queueTermination(res: NodeServerResponse, request: Request, response: Response, clientLeft: boolean): void {
    // Counted from now, not from when it runs, so a shutdown waiting on drain() cannot miss it.
    if (this.#queuedTerminations.push(res, request, response, clientLeft) === 4) setImmediate(this.#runQueuedTerminations);
  }

  /**
   * Terminates each queued request whose response is closed; one still being sent (a stream) is
   * queued again when it closes. Most responses are closed by now: they were written in full.
   */
  readonly #runQueuedTerminations = (): void => {
    const queue = this.#queuedTerminations;
    this.#queuedTerminations = [];
    for (let i = 0; i < queue.length; i += 4) {
      const res = queue[i] as NodeServerResponse;
      const request = queue[i + 1] as Request;
      const response = queue[i + 2] as Response;
      const clientLeft = queue[i + 3] as boolean;
      // Closed before 'finish': the client went away (or a failing stream was cut) mid-response.
      if (isClosed(res)) this.#terminate(request, response, !clientLeft && isFinished(res));
      else res.once('close', () => this.#queueTermination(res, request, response, clientLeft));
    }
  };

  /** Tracked for drain() only when it has to wait: most `kernel.terminate` listeners return at once. */
  #terminate(request: Request, response: Response, finished: boolean): void {
    const kernel = this.#kernel;
    let outcome: MaybePromise<void>;
    try {
      outcome = fromThenable(
        kernel.terminateEagerly !== undefined
          ? kernel.terminateEagerly(request, response, finished)
          : kernel.terminate!(request, response, finished),
      );
    } catch (error) {
      this.#terminateFailed(error);
      return;
    }
    if (!(outcome instanceof Promise)) return;
    const running = outcome.catch((error: unknown) => this.#terminateFailed(error));
    this.#runningTerminations.add(running);
    void running.finally(() => this.#runningTerminations.delete(running));
  }

  #terminateFailed(error: unknown): void {
    logAt(this.#logger, 'CRITICAL', { err: error }, `kernel.terminate failed: ${describeError(error)}`);
  }
}

/**
 * Answered requests waiting for their `kernel.terminate`, four entries each: `res`, `request`,
 * `response`, and whether the client had left before the answer was written.
 */
type TerminationQueue = Array<NodeServerResponse | Request | Response | boolean>;

/** `(req, res)` listener that hands every request to `kernel`. */
export function createRequestListener(kernel: HttpKernelInterface, options?: NodeAdapterOptions): NodeRequestListener {
  return new NodeAdapter(kernel, options).listener;
}

/**
 * `OPTIONS *` asks about the server, not a resource (RFC 9110 §9.3.7): it is answered here with
 * 204 and never reaches the router, which has no route for `*`.
 */
function answerServerWideOptions(res: NodeServerResponse): void {
  res.writeHead(204, { 'cache-control': 'no-store' });
  res.end();
}
