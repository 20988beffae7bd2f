import {
  DeferredHttpError,
  errorOf,
  HttpError,
  isLogged,
  logAt,
  RequestType,
  Response,
  stderrLogger,
  type Controller,
  type EventSubscriber,
  type ExceptionEvent,
  type KernelEventMap,
  type Logger,
  toLogLevel,
  type LogLevel,
  type LogLevelName,
  type MaybePromise,
  type Request,
  type ResponseEvent,
  type SubscribedEvents,
} from '@switchboard/http-kernel';
import { fromThenable, handleEagerlyWith, isAbandonment, statusOf, statusText } from '@switchboard/http-kernel/internal';
import { createErrorController, type DefaultErrorRenderersOptions } from '../controller/error-controller.js';
import { describeThrowSite, flattenError } from '../flatten/flatten-error.js';
import { debugExceptionHeaders } from '../renderer/debug-exception-headers.js';

declare module '@switchboard/http-kernel' {
  interface RequestAttributes {
    /** Set on a request whose error page was rendered in debug mode: its CSP header is dropped. */
    _remove_csp_headers?: boolean;
    /** The logger handed to the error controller by the error sub-request. */
    logger?: Logger;
  }
}

/**
 * Log levels by status: an exact status (`404`) or a class (`'4xx'`, `'5xx'`), the exact one first.
 * `{ '4xx': 'info', '5xx': 'error' }` is the value recommended for an API.
 */
export type StatusLogLevels = Readonly<Partial<Record<number | '4xx' | '5xx', LogLevelName>>>;

/** `logLevels`' key for each status class, by its first digit. */
const STATUS_CLASSES = ['0xx', '1xx', '2xx', '3xx', '4xx', '5xx'];

export interface ErrorListenerOptions extends DefaultErrorRenderersOptions {
  /**
   * Errors are written to its `request` channel. Defaults to `stderrLogger`, which shows server
   * errors (5xx) on stderr and nothing else; `nullLogger` silences it.
   */
  logger?: Logger;
  /**
   * The level each error is logged at, by its status (a thrown non-`HttpError` is a 500). An
   * `HttpError`'s own `logLevel` comes first; statuses left out keep the defaults, ERROR for a
   * 4xx and CRITICAL for a 5xx.
   */
  logLevels?: StatusLogLevels;
  /**
   * The controller of the error sub-request; defaults to `createErrorController` with `debug`,
   * `defaultFormat` and `exposeClientErrorMessages`.
   */
  controller?: Controller;
}

/**
 * Turns an uncaught error into the error response:
 * - `kernel.exception` (`LOG_PRIORITY`): logs it once on `request` — at its `logLevel`, else its
 *   status's level in `logLevels`, else ERROR for a 4xx `HttpError` and CRITICAL for anything else —
 *   with class, message and throw site, and the error under `err`: whole (with its stack) at ERROR
 *   and above, its class and message only below;
 * - `kernel.exception` (`SUB_REQUEST_PRIORITY`): handles a GET duplicate of the failed request whose attributes are
 *   only the error controller, the error and the logger, as a SUB request (so it runs its own
 *   request … finish_request events), and answers with its response. If that fails too, the
 *   second error is logged and the client gets a plain text response with the original status;
 * - `kernel.response` (`REMOVE_CSP_PRIORITY`), subscribed in debug mode only: removes `Content-Security-Policy` from
 *   the response of a request that got an error page (the debug page must render whatever the
 *   app's policy).
 */
export class ErrorListener implements EventSubscriber<KernelEventMap> {
  /** Before any listener at a lower priority can answer, so every error is logged. */
  static readonly LOG_PRIORITY = 0;
  /** Last: any listener at a higher priority (an app's own, `UnmatchedRequestListener.EXCEPTION_PRIORITY`) may answer first. */
  static readonly SUB_REQUEST_PRIORITY = -128;
  /** With `DebugTokenLinkListener.RESPONSE_PRIORITY`; after the listeners that might add a CSP. */
  static readonly REMOVE_CSP_PRIORITY = -128;

  readonly #debug: boolean;
  readonly #logger: Logger;
  readonly #controllerLogger: Logger;
  readonly #controller: Controller;
  /** The default error controller renders a `DeferredHttpError` as it is; one given may expect an `Error`. */
  readonly #controllerTakesDeferred: boolean;
  readonly #logLevels: ReadonlyMap<number | string, LogLevel>;
  /** Errors already logged, keyed by the error itself: an error passing twice is logged once. */
  readonly #logged = new WeakSet<object>();

  constructor(options: ErrorListenerOptions) {
    this.#debug = options.debug;
    this.#controllerLogger = options.logger ?? stderrLogger;
    this.#logger = this.#controllerLogger.child({ channel: 'request' });
    this.#controller = options.controller ?? createErrorController(options);
    this.#controllerTakesDeferred = options.controller === undefined;
    // Statuses as numbers, classes as `4xx`: looked up without writing a key per error.
    this.#logLevels = new Map(
      Object.entries(options.logLevels ?? {}).flatMap(([key, name]) =>
        name === undefined ? [] : [[key.endsWith('xx') ? key : Number(key), toLogLevel(name)] as const],
      ),
    );
  }

  getSubscribedEvents(): SubscribedEvents<KernelEventMap> {
    const events: SubscribedEvents<KernelEventMap> = {
      'kernel.exception': [
        [this.logKernelException, ErrorListener.LOG_PRIORITY],
        [this.onKernelException, ErrorListener.SUB_REQUEST_PRIORITY],
      ],
    };
    // Outside debug mode it could never act.
    if (this.#debug) {
      // The attribute is set on the main request, whose response is the one sent.
      events['kernel.response'] = [this.removeCspHeader, ErrorListener.REMOVE_CSP_PRIORITY, { mainRequestOnly: true }];
    }
    return events;
  }

  logKernelException(event: ExceptionEvent): void {
    const level = this.#levelOf(event.pendingThrowable, event.request);
    // A record nobody keeps is not built: its throw site means reading the stack (docs/decisions.md D8).
    if (!isLogged(this.#logger, level)) return;
    const error = event.throwable;
    if (typeof error === 'object' && error !== null) {
      if (this.#logged.has(error)) return;
      this.#logged.add(error);
    }
    // Through the request's own logger once one is bound (RequestIdListener): the record carries its id and route.
    const request = event.request;
    const logger = request.attributes.has('_request_id') ? request.logger.child({ channel: 'request' }) : this.#logger;
    logAt(
      logger,
      level,
      { err: level === 'ERROR' || level === 'CRITICAL' ? error : withoutStack(error) },
      `Uncaught Error ${describeThrowSite(error)}`,
    );
  }

  /**
   * A request abandoned by its client or at shutdown is INFO; otherwise the error's own
   * `logLevel`, its status's level in `logLevels`, then ERROR for a 4xx and CRITICAL for a 5xx.
   */
  #levelOf(error: unknown, request?: Request): LogLevel {
    if (request !== undefined && isAbandonment(error, request)) return 'INFO';
    const http = error instanceof HttpError || error instanceof DeferredHttpError;
    if (http && error.logLevel !== null) return error.logLevel;
    const status = statusOf(error);
    const byStatus = this.#logLevels.get(status) ?? this.#logLevels.get(STATUS_CLASSES[Math.floor(status / 100)] ?? '');
    return byStatus ?? (status < 500 && http ? 'ERROR' : 'CRITICAL');
  }

  /** Synchronous when the sub-request is (the kernel's `handleEagerly`): most error pages wait for nothing. */
  onKernelException(event: ExceptionEvent): void | Promise<void> {
    const error = this.#controllerTakesDeferred ? event.pendingThrowable : event.throwable;
    const subRequest = event.request.duplicate({
      method: 'GET',
      attributes: [
        ['_controller', this.#controller],
        ['exception', error],
        ['logger', this.#controllerLogger],
      ],
    });
    let response: MaybePromise<Response>;
    try {
      response = fromThenable(handleEagerlyWith(event.kernel, subRequest, RequestType.SUB, false));
    } catch (failure) {
      this.#subRequestFailed(event, error, failure);
      return;
    }
    // Only a sub-request that had to wait gets its promise continued (with closures).
    if (!(response instanceof Promise)) {
      this.#answer(event, response);
      return;
    }
    return response.then(
      (answer) => this.#answer(event, answer),
      (failure: unknown) => this.#subRequestFailed(event, error, failure),
    );
  }

  #answer(event: ExceptionEvent, response: Response): void {
    event.setResponse(response);
    if (this.#debug) event.request.attributes.set('_remove_csp_headers', true);
  }

  #subRequestFailed(event: ExceptionEvent, pending: unknown, failure: unknown): void {
    const error = errorOf(pending);
    const described = describeThrowSite(failure);
    logAt(
      this.#logger,
      this.#levelOf(failure),
      { err: failure, original: error },
      `Exception thrown when handling an exception (${described})`,
    );
    event.setResponse(this.#plainResponse(error, failure));
  }

  removeCspHeader(event: ResponseEvent): void {
    if (this.#debug && event.request.attributes.get('_remove_csp_headers') === true) {
      event.response.headers.delete('content-security-policy');
    }
  }

  /** The answer when the error page itself failed: status and headers right, nothing to fail. */
  #plainResponse(error: unknown, failure: unknown): Response {
    const status = statusOf(error);
    let body = `${status} ${statusText(status)}\n`;
    const response = new Response('', status, { 'content-type': 'text/plain; charset=UTF-8' });
    if (this.#debug) {
      body += `\n${stackOf(error)}\n\nThe error page failed too:\n${stackOf(failure)}\n`;
      for (const [name, value] of Object.entries(debugExceptionHeaders(flattenError(error)))) response.headers.set(name, value);
    }
    if (error instanceof HttpError) {
      for (const [name, value] of Object.entries(error.headers)) response.headers.set(name, value);
    }
    response.body = body;
    return response;
  }
}

/**
 * What a record below ERROR shows of an error: an expected refusal needs no stack trace. A copy of
 * the same class without one, so a serializer (pino's `err`) still writes its type and message.
 */
function withoutStack(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const copy = Object.create(Object.getPrototypeOf(error) as object) as Error;
  for (const key of Object.getOwnPropertyNames(error)) {
    if (key !== 'stack') Object.defineProperty(copy, key, Object.getOwnPropertyDescriptor(error, key)!);
  }
  Object.defineProperty(copy, 'stack', { value: undefined });
  return copy;
}

function stackOf(error: unknown): string {
  try {
    return error instanceof Error && typeof error.stack === 'string' ? error.stack : String(error);
  } catch {
    return '(no description)';
  }
}
