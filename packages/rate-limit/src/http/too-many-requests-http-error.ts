import { HttpError, ServiceUnavailableHttpError, type HttpErrorOptions } from '@switchboard/http-kernel';

/** 429: rendered by the error controller like any `HttpError` (problem+json, or the debug page), with its headers. */
export class TooManyRequestsHttpError extends HttpError {
  constructor(message = 'Too Many Requests', options?: HttpErrorOptions) {
    super(429, message, options);
  }
}

/** 503 from a limiter that fails closed while its store cannot answer; the client may retry in a second. */
export class RateLimitStoreUnavailableError extends ServiceUnavailableHttpError {
  constructor(cause: unknown) {
    super('The rate limit store is unavailable.', { cause, headers: { 'retry-after': '1' } });
  }
}
