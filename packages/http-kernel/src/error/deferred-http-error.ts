import type { HeaderValue } from '../http/header-bag.js';
import type { LogLevel } from '../log/logger.js';
import type { HttpError } from './http-error.js';

const NO_HEADERS: Readonly<Record<string, HeaderValue>> = Object.freeze({});
const NO_DETAILS: Readonly<Record<string, unknown>> = Object.freeze({});

/**
 * An HTTP error described but not made yet: what answering it takes (status, headers, message) is
 * there at once, the `Error` itself only when someone asks for it (`toError()`, made once). For
 * refusals so frequent that making an `Error` each time is most of their cost, and whose error
 * object most requests never read: the router's 404 and 405.
 *
 * A `kernel.request` listener fails its request with one (`RequestEvent.failWith`);
 * `ExceptionEvent` carries it, answers `status` and `headers` from it, and makes the error on the
 * first read of `throwable`; the error page is written from the description alone. Subclasses
 * say how the error is made and, when writing it costs something, compute the message on demand.
 */
export abstract class DeferredHttpError {
  #error: HttpError | undefined;

  abstract readonly status: number;
  abstract readonly message: string;
  /** The class the error will have (`NotFoundHttpError`), as logs and error pages name it. */
  abstract readonly name: string;

  /** Headers the error response must carry (`Allow`…), as `HttpError.headers`. */
  get headers(): Readonly<Record<string, HeaderValue>> {
    return NO_HEADERS;
  }

  /** Problem document extension members, as `HttpError.details`. */
  get details(): Readonly<Record<string, unknown>> {
    return NO_DETAILS;
  }

  /** Where the error is raised, as `HttpError.thrownBy`. */
  get thrownBy(): string | null {
    return null;
  }

  /** As `HttpError.logLevel`: `null` lets the status decide. */
  get logLevel(): LogLevel | null {
    return null;
  }

  /** As `HttpError.exposeMessage`: `null` lets the error controller's setting decide. */
  get exposeMessage(): boolean | null {
    return null;
  }

  /** The error described, made on the first call. */
  toError(): HttpError {
    this.#error ??= this.makeError();
    return this.#error;
  }

  protected abstract makeError(): HttpError;
}

/** `error` itself, or the error a `DeferredHttpError` describes (made now if nobody made it yet). */
export function errorOf(error: unknown): unknown {
  return error instanceof DeferredHttpError ? error.toError() : error;
}
