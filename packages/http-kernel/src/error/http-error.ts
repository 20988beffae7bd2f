import type { HeaderValue } from '../http/header-bag.js';
import { toLogLevel, type LogLevel, type LogLevelName } from '../log/logger.js';

export interface HttpErrorOptions {
  /** Headers the error response must carry (`Allow`, `WWW-Authenticate`, `Retry-After`…). */
  headers?: Readonly<Record<string, HeaderValue>>;
  cause?: unknown;
  /**
   * Extension members for a problem document (RFC 9457), e.g. `{ violations: [...] }` for a 422.
   * Renderers include them in every mode, so put nothing secret here.
   */
  details?: Readonly<Record<string, unknown>>;
  /**
   * Where the error was thrown, as its thrower names it (`RouterListener.onKernelRequest`): what
   * the error log line shows when the error carries no stack trace to read it from (see
   * `withoutStackTrace`).
   */
  thrownBy?: string;
  /**
   * The level the error listener logs it at. Default ERROR for a 4xx, CRITICAL for a 5xx; an
   * expected refusal a server makes on purpose (shedding load) says less.
   */
  logLevel?: LogLevelName;
  /**
   * Whether a 4xx's message reaches the client (a problem document's `detail`) outside debug mode.
   * Unset, the error renderer's `exposeClientErrorMessages` decides (on by default). A 5xx's
   * message is never shown outside debug mode.
   */
  exposeMessage?: boolean;
}

/**
 * An error that maps to an HTTP status. Thrown anywhere in the lifecycle, it becomes an error
 * response with this status and these headers; any other error becomes a 500.
 */
export class HttpError extends Error {
  readonly status: number;
  readonly headers: Readonly<Record<string, HeaderValue>>;
  readonly details: Readonly<Record<string, unknown>>;
  readonly thrownBy: string | null;
  /** `null`: the status decides (ERROR for 4xx, CRITICAL for 5xx). */
  readonly logLevel: LogLevel | null;
  /** `null`: the renderer's `exposeClientErrorMessages` decides. */
  readonly exposeMessage: boolean | null;

  constructor(status: number, message = '', options: HttpErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    if (!Number.isInteger(status) || status < 400 || status > 599) {
      throw new RangeError(`An HttpError needs a 4xx or 5xx status, got ${status}.`);
    }
    this.name = new.target.name;
    this.status = status;
    this.headers = options.headers ?? {};
    this.details = options.details ?? {};
    this.thrownBy = options.thrownBy ?? null;
    this.logLevel = options.logLevel === undefined ? null : toLogLevel(options.logLevel);
    this.exposeMessage = options.exposeMessage ?? null;
  }
}

export class BadRequestHttpError extends HttpError {
  constructor(message = 'Bad Request', options?: HttpErrorOptions) {
    super(400, message, options);
  }
}

/** 401; `challenge` is the `WWW-Authenticate` value (e.g. `Bearer`). */
export class UnauthorizedHttpError extends HttpError {
  constructor(
    readonly challenge: string,
    message = 'Unauthorized',
    options: HttpErrorOptions = {},
  ) {
    super(401, message, { ...options, headers: { ...options.headers, 'www-authenticate': challenge } });
  }
}

/** 403. */
export class AccessDeniedHttpError extends HttpError {
  constructor(message = 'Access Denied.', options?: HttpErrorOptions) {
    super(403, message, options);
  }
}

export class NotFoundHttpError extends HttpError {
  constructor(message = 'Not Found', options?: HttpErrorOptions) {
    super(404, message, options);
  }
}

/** 405 carrying the allowed methods, sent as the `Allow` header. */
export class MethodNotAllowedHttpError extends HttpError {
  readonly allowedMethods: readonly string[];

  constructor(allowedMethods: readonly string[], message = 'Method Not Allowed', options: HttpErrorOptions = {}) {
    super(405, message, { ...options, headers: { ...options.headers, allow: allowedMethods.join(', ') } });
    this.allowedMethods = allowedMethods;
  }
}

export class PayloadTooLargeHttpError extends HttpError {
  constructor(message = 'Payload Too Large', options?: HttpErrorOptions) {
    super(413, message, options);
  }
}

export class UnsupportedMediaTypeHttpError extends HttpError {
  constructor(message = 'Unsupported Media Type', options?: HttpErrorOptions) {
    super(415, message, options);
  }
}

export class UnprocessableEntityHttpError extends HttpError {
  constructor(message = 'Unprocessable Content', options?: HttpErrorOptions) {
    super(422, message, options);
  }
}

export class ServiceUnavailableHttpError extends HttpError {
  constructor(message = 'Service Unavailable', options?: HttpErrorOptions) {
    super(503, message, options);
  }
}

/** Reason phrases (RFC 9110) for the statuses an error page may show. */
export const STATUS_TEXTS: Readonly<Record<number, string>> = {
  100: 'Continue',
  101: 'Switching Protocols',
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  206: 'Partial Content',
  301: 'Moved Permanently',
  302: 'Found',
  303: 'See Other',
  304: 'Not Modified',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  411: 'Length Required',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  417: 'Expectation Failed',
  418: "I'm a teapot",
  421: 'Misdirected Request',
  422: 'Unprocessable Content',
  423: 'Locked',
  424: 'Failed Dependency',
  425: 'Too Early',
  426: 'Upgrade Required',
  428: 'Precondition Required',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  451: 'Unavailable For Legal Reasons',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
  505: 'HTTP Version Not Supported',
  507: 'Insufficient Storage',
  508: 'Loop Detected',
  511: 'Network Authentication Required',
};

export function statusText(status: number): string {
  return STATUS_TEXTS[status] ?? (status >= 500 ? 'Server Error' : status >= 400 ? 'Client Error' : 'Unknown Status');
}

/**
 * `build()`, capturing no stack trace for the errors it creates: for errors thrown often and read
 * by nobody outside debug mode (a router's 404), where capturing the stack is most of their cost
 * (docs/decisions.md D5). Such an error names its throw site instead (`thrownBy`).
 * `Error.stackTraceLimit`, which is process-wide, is restored however `build` ends.
 */
export function withoutStackTrace<E>(build: () => E): E {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return build();
  } finally {
    Error.stackTraceLimit = limit;
  }
}
