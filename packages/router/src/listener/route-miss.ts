import { DeferredHttpError, type HeaderValue, type HttpError, type Request } from '@switchboard/http-kernel';
import type { MethodNotAllowedMatch, NotFoundMatch } from '../matcher/match-result.js';

/** Makes the error a miss describes; `stackless` outside debug mode. */
export type RoutingErrorMaker = (request: Request, result: MethodNotAllowedMatch | NotFoundMatch, stackless: boolean) => HttpError;

const NO_HEADERS: Readonly<Record<string, HeaderValue>> = Object.freeze({});

/**
 * A request no route takes, as the router listener fails it outside debug mode: a 404 or 405
 * described, its `Error` made only when someone reads it (docs/decisions.md D5). The message,
 * which quotes the request's URL and `Referer`, is written on first read too.
 */
export class RouteMiss extends DeferredHttpError {
  #message: string | undefined;

  constructor(
    private readonly request: Request,
    private readonly result: MethodNotAllowedMatch | NotFoundMatch,
    private readonly raisedBy: string,
    /** The router listener's own: its errors name it as their throw site. */
    private readonly makeRoutingError: RoutingErrorMaker,
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
    this.#message ??= this.toError().message;
    return this.#message;
  }

  override get headers(): Readonly<Record<string, HeaderValue>> {
    return this.result.kind === 'method-not-allowed' ? { allow: this.result.allowedMethods.join(', ') } : NO_HEADERS;
  }

  override get thrownBy(): string {
    return this.raisedBy;
  }

  protected makeError(): HttpError {
    return this.makeRoutingError(this.request, this.result, true);
  }
}
