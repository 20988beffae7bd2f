import { HttpError, type HttpErrorOptions } from '@switchboard/http-kernel';

/** 429: rendered by the error controller like any `HttpError` (problem+json, or the debug page), with its headers. */
export class TooManyRequestsHttpError extends HttpError {
  constructor(message = 'Too Many Requests', options?: HttpErrorOptions) {
    super(429, message, options);
  }
}
