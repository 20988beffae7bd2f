import {
  DeferredHttpError,
  MethodNotAllowedHttpError,
  NotFoundHttpError,
  type HeaderValue,
  type HttpError,
  type Request,
} from '@switchboard/http-kernel';
import { MethodNotAllowedError, ResourceNotFoundError, resourceNotFoundMessage } from '../error/routing-error.js';
import type { MethodNotAllowedMatch, NotFoundMatch } from '../matcher/match-result.js';
import { stacklessError } from './stackless-error.js';

/** The throw site the router's 404 and 405 errors name. */
export const THROWN_BY = 'RouterListener.onKernelRequest';

const NO_HEADERS: Readonly<Record<string, HeaderValue>> = Object.freeze({});

/**
 * A request no route takes, as the router listener fails it outside debug mode: a 404 or 405
 * described, its error made only when someone reads it, without a stack trace and without its
 * constructors (`stacklessError`, docs/decisions.md D5). The message, which quotes the request's
 * URL and `Referer`, is written on first read too.
 */
export class RouteMiss extends DeferredHttpError {
  #message: string | undefined;

  constructor(
    private readonly request: Request,
    private readonly result: MethodNotAllowedMatch | NotFoundMatch,
  ) {
    super();
  }

  get status(): number {
    return this.result.kind === 'method-not-allowed' ? 405 : 404;
  }

  get name(): string {
    return this.result.kind === 'method-not-allowed' ? 'MethodNotAllowedHttpError' : 'NotFoundHttpError';
  }

  get message(): string {
    this.#message ??= routingErrorMessage(this.request, this.result);
    return this.#message;
  }

  override get headers(): Readonly<Record<string, HeaderValue>> {
    return this.result.kind === 'method-not-allowed' ? { allow: this.result.allowedMethods.join(', ') } : NO_HEADERS;
  }

  override get thrownBy(): string {
    return THROWN_BY;
  }

  /** The message quotes the URL and the Referer: for the log, not the client. */
  override get exposeMessage(): boolean {
    return false;
  }

  protected makeError(): HttpError {
    const result = this.result;
    if (result.kind === 'method-not-allowed') {
      const allowed = result.allowedMethods;
      const cause = stacklessError(MethodNotAllowedError, '', undefined, { allowedMethods: allowed });
      const fields = {
        status: 405,
        headers: this.headers,
        details: {},
        thrownBy: THROWN_BY,
        logLevel: null,
        exposeMessage: false,
        allowedMethods: allowed,
      };
      return stacklessError(MethodNotAllowedHttpError, this.message, cause, fields);
    }
    const cause = stacklessError(ResourceNotFoundError, resourceNotFoundMessage(result.path), undefined, { path: result.path });
    const fields = { status: 404, headers: {}, details: {}, thrownBy: THROWN_BY, logLevel: null, exposeMessage: false };
    return stacklessError(NotFoundHttpError, this.message, cause, fields);
  }
}

/**
 * `No route found for "GET http://host[:port]/path"` (the request's method, path still
 * percent-encoded, no query), then the allowed methods of a 405 or the `Referer` of a 404.
 */
export function routingErrorMessage(request: Request, result: MethodNotAllowedMatch | NotFoundMatch): string {
  const message = `No route found for "${request.method} ${request.url}"`;
  if (result.kind === 'method-not-allowed') return `${message}: Method Not Allowed (Allow: ${result.allowedMethods.join(', ')})`;
  const referer = request.headers.get('referer');
  return referer === undefined ? message : `${message} (from "${referer}")`;
}
