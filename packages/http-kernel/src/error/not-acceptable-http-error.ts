import { HttpError, type HttpErrorOptions } from './http-error.js';

/**
 * 406: the client's `Accept` refuses every media type the route offers. The offered types are the
 * problem document's `available` member (RFC 9110 §15.5.7 asks for such a list).
 */
export class NotAcceptableHttpError extends HttpError {
  readonly available: readonly string[];

  constructor(
    available: readonly string[],
    message = `The Accept header accepts none of: ${available.join(', ')}.`,
    options: HttpErrorOptions = {},
  ) {
    super(406, message, { ...options, details: { ...options.details, available } });
    this.available = available;
  }
}
