import { ArgumentResolver } from '../controller/argument-resolver.js';
import type { Controller } from '../controller/controller.js';
import { controllerName } from '../controller/controller.js';
import { ControllerResolver } from '../controller/controller-resolver.js';
import type { EventDispatcher } from '../dispatcher/event-dispatcher.js';
import { HttpError, NotFoundHttpError, statusOf, statusText } from '../error/http-error.js';
import { ControllerArgumentsEvent } from '../event/controller-arguments-event.js';
import { ControllerEvent } from '../event/controller-event.js';
import { ExceptionEvent } from '../event/exception-event.js';
import { FinishRequestEvent } from '../event/finish-request-event.js';
import type { KernelEventMap } from '../event/kernel-events.js';
import { RequestEvent } from '../event/request-event.js';
import { ResponseEvent } from '../event/response-event.js';
import { TerminateEvent } from '../event/terminate-event.js';
import { ViewEvent } from '../event/view-event.js';
import type { Request } from '../http/request.js';
import { RequestStack } from '../http/request-stack.js';
import { Response } from '../http/response.js';
import { isThenable } from '../internal/is-thenable.js';
import { logAt, stderrLogger, type Logger } from '../log/logger.js';
import type { HttpKernelInterface } from './http-kernel-interface.js';
import { RequestType } from './request-type.js';

export interface HttpKernelOptions {
  dispatcher: EventDispatcher<KernelEventMap>;
  controllerResolver?: ControllerResolver;
  argumentResolver?: ArgumentResolver;
  /**
   * Receives what the kernel itself must report: errors swallowed while answering an error.
   * Defaults to `stderrLogger` (CRITICAL records on stderr); `nullLogger` silences it.
   */
  logger?: Logger;
}

const REDIRECT_STATUSES = new Set([201, 301, 302, 303, 307, 308]);

type CallableController = (...args: unknown[]) => unknown;

/**
 * Takes a request through `kernel.request` → controller → `kernel.controller_arguments` →
 * [`kernel.view`] → `kernel.response` → `kernel.finish_request`, with `kernel.exception` on any
 * error. See docs/events.md for what each step may change.
 *
 * A dispatch returns a promise only when a listener was async, and so do the steps: the whole
 * request stays synchronous until something in it waits.
 */
export class HttpKernel implements HttpKernelInterface {
  readonly dispatcher: EventDispatcher<KernelEventMap>;
  readonly controllerResolver: ControllerResolver;
  readonly argumentResolver: ArgumentResolver;
  readonly #logger: Logger;

  constructor(options: HttpKernelOptions) {
    this.dispatcher = options.dispatcher;
    this.controllerResolver = options.controllerResolver ?? new ControllerResolver();
    this.argumentResolver = options.argumentResolver ?? new ArgumentResolver();
    this.#logger = (options.logger ?? stderrLogger).child({ channel: 'kernel' });
  }

  handle(request: Request, type: RequestType = RequestType.MAIN, catchErrors = true): Promise<Response> {
    return Promise.resolve(this.handleEagerly(request, type, catchErrors));
  }

  /**
   * `handle()` without a promise when none is needed: the response itself when every listener
   * and the controller answered synchronously, otherwise a promise of it. For adapters, which
   * write the response the moment it exists. Never throws; errors take the same path as in
   * `handle()`.
   */
  handleEagerly(request: Request, type: RequestType = RequestType.MAIN, catchErrors = true): Response | Promise<Response> {
    const stack = (request.requestStack ??= new RequestStack());
    stack.push(request);
    let outcome: Response | Promise<Response>;
    try {
      outcome = this.#handleRaw(request, type);
    } catch (error) {
      return this.#recover(error, request, type, catchErrors, stack);
    }
    if (!isThenable(outcome)) {
      stack.pop();
      return outcome;
    }
    return poppedWhenSettled(outcome, stack, (error) => this.#recover(error, request, type, catchErrors, stack));
  }

  /** Dispatches `kernel.terminate` once the response was sent. Never rejects: failures are logged. */
  async terminate(request: Request, response: Response): Promise<void> {
    try {
      await this.dispatcher.dispatch('kernel.terminate', new TerminateEvent(this, request, response));
    } catch (error) {
      logAt(this.#logger, 'CRITICAL', { exception: error }, `Error during kernel.terminate: ${describeError(error)}`);
    }
  }

  /**
   * The error branch, as synchronous as the main one: while the `kernel.exception` listeners and
   * the error response's listeners answer at once, so does the kernel.
   */
  #recover(
    error: unknown,
    request: Request,
    type: RequestType,
    catchErrors: boolean,
    stack: RequestStack,
  ): Response | Promise<Response> {
    let outcome: Response | Promise<Response>;
    try {
      outcome = catchErrors ? this.#handleThrowable(error, request, type) : this.#finishThenThrow(error, request, type);
    } catch (escaped) {
      return this.#escaped(escaped, error, request, type, catchErrors, stack);
    }
    if (!isThenable(outcome)) {
      stack.pop();
      return outcome;
    }
    return poppedWhenSettled(outcome, stack, (escaped) => this.#escaped(escaped, error, request, type, catchErrors, stack));
  }

  /**
   * An error left the error branch: a `kernel.exception` listener threw, none answered, or the
   * caller asked for errors uncaught. A sub-request's caller, or one that asked, gets it; a main
   * request gets one more error pass, then a plain page.
   */
  async #escaped(
    escaped: unknown,
    original: unknown,
    request: Request,
    type: RequestType,
    catchErrors: boolean,
    stack: RequestStack,
  ): Promise<Response> {
    try {
      if (!catchErrors || type !== RequestType.MAIN) throw escaped;
      return await this.#lastResort(escaped, original, request);
    } finally {
      stack.pop();
    }
  }

  // The steps below return a Response while every listener and the controller answer
  // synchronously, and a promise from the first one that does not: a request that never waits
  // pays for no promise. Each step writes out `after()` (dispatch, then the next step now or once
  // the dispatch settles) so that the synchronous way allocates no continuation closure. A step
  // whose event nobody observes (no listener, no tracer) builds no event object: nothing could
  // read or change it.

  #handleRaw(request: Request, type: RequestType): Response | Promise<Response> {
    const event = new RequestEvent(this, request, type);
    const pending = this.dispatcher.dispatch('kernel.request', event);
    if (pending !== undefined) return pending.then(() => this.#afterRequestEvent(event, request, type));
    return this.#afterRequestEvent(event, request, type);
  }

  #afterRequestEvent(event: RequestEvent, request: Request, type: RequestType): Response | Promise<Response> {
    return event.response !== null ? this.#filterResponse(event.response, request, type) : this.#resolveController(request, type);
  }

  #resolveController(request: Request, type: RequestType): Response | Promise<Response> {
    const resolved = this.controllerResolver.getController(request);
    if (resolved === null) {
      throw new NotFoundHttpError(
        `Unable to find the controller for path "${request.rawPath}". The route is wrongly configured.`,
      );
    }
    if (!this.dispatcher.isObserved('kernel.controller')) return this.#resolveArguments(resolved, request, type);
    const event = new ControllerEvent(this, request, type, resolved);
    const pending = this.dispatcher.dispatch('kernel.controller', event);
    if (pending !== undefined) return pending.then(() => this.#resolveArguments(event.controller, request, type));
    return this.#resolveArguments(event.controller, request, type);
  }

  #resolveArguments(controller: Controller, request: Request, type: RequestType): Response | Promise<Response> {
    const resolvedArguments = this.argumentResolver.getArguments(request, controller);
    return isThenable(resolvedArguments)
      ? Promise.resolve(resolvedArguments).then((args) => this.#callController(controller, args, request, type))
      : this.#callController(controller, resolvedArguments, request, type);
  }

  #callController(controller: Controller, args: unknown[], request: Request, type: RequestType): Response | Promise<Response> {
    if (!this.dispatcher.isObserved('kernel.controller_arguments')) return this.#invoke(controller, args, request, type);
    const event = new ControllerArgumentsEvent(this, request, type, controller, args);
    const pending = this.dispatcher.dispatch('kernel.controller_arguments', event);
    if (pending !== undefined) return pending.then(() => this.#invoke(event.controller, event.arguments, request, type));
    return this.#invoke(event.controller, event.arguments, request, type);
  }

  #invoke(controller: Controller, args: unknown[], request: Request, type: RequestType): Response | Promise<Response> {
    const result = (controller as CallableController)(...args);
    return isThenable(result)
      ? Promise.resolve(result).then((value) => this.#toResponse(controller, value, request, type))
      : this.#toResponse(controller, result, request, type);
  }

  #toResponse(controller: Controller, result: unknown, request: Request, type: RequestType): Response | Promise<Response> {
    if (result instanceof Response) return this.#filterResponse(result, request, type);
    const event = new ViewEvent(this, request, type, result);
    return after(this.dispatcher.dispatch('kernel.view', event), () => {
      if (event.response === null) throw controllerReturnedNoResponse(controller, result);
      return this.#filterResponse(event.response, request, type);
    });
  }

  #filterResponse(response: Response, request: Request, type: RequestType): Response | Promise<Response> {
    const event = new ResponseEvent(this, request, type, response);
    const pending = this.dispatcher.dispatch('kernel.response', event);
    if (pending !== undefined) return pending.then(() => after(this.#finishRequest(request, type), () => event.response));
    const finishing = this.#finishRequest(request, type);
    return finishing === undefined ? event.response : finishing.then(() => event.response);
  }

  #finishRequest(request: Request, type: RequestType): void | Promise<void> {
    if (!this.dispatcher.isObserved('kernel.finish_request')) return;
    return this.dispatcher.dispatch('kernel.finish_request', new FinishRequestEvent(this, request, type));
  }

  #handleThrowable(thrown: unknown, request: Request, type: RequestType): Response | Promise<Response> {
    const event = new ExceptionEvent(this, request, type, thrown);
    const pending = this.dispatcher.dispatch('kernel.exception', event);
    if (pending !== undefined) return pending.then(() => this.#answerError(event, request, type));
    return this.#answerError(event, request, type);
  }

  /** The response a `kernel.exception` listener set, with the error's status forced on it, filtered. */
  #answerError(event: ExceptionEvent, request: Request, type: RequestType): Response | Promise<Response> {
    const error = event.throwable;
    const response = event.response;
    if (response === null) return this.#finishThenThrow(error, request, type);
    if (
      !event.isAllowingCustomResponseCode() &&
      !response.isClientError &&
      !response.isServerError &&
      !REDIRECT_STATUSES.has(response.status)
    ) {
      response.status = statusOf(error);
      if (error instanceof HttpError) {
        for (const [name, value] of Object.entries(error.headers)) response.headers.set(name, value);
      }
    }
    let filtered: Response | Promise<Response>;
    try {
      filtered = this.#filterResponse(response, request, type);
    } catch (filterError) {
      return this.#unfiltered(filterError, response);
    }
    if (!isThenable(filtered)) return filtered;
    return filtered.then(undefined, (filterError: unknown) => this.#unfiltered(filterError, response));
  }

  /** As the reference does: the error response goes out unfiltered rather than not at all. */
  #unfiltered(filterError: unknown, response: Response): Response {
    logAt(this.#logger, 'CRITICAL', { exception: filterError }, `Error while filtering an error response: ${describeError(filterError)}`);
    return response;
  }

  /** `kernel.finish_request`, then `error` thrown (or the promise rejected with it). */
  #finishThenThrow(error: unknown, request: Request, type: RequestType): Promise<never> {
    const pending = this.#finishRequest(request, type);
    if (pending === undefined) throw error;
    return pending.then(() => {
      throw error;
    });
  }

  async #lastResort(escaped: unknown, original: unknown, request: Request): Promise<Response> {
    try {
      return await this.#handleThrowable(escaped, request, RequestType.MAIN);
    } catch (final) {
      logAt(this.#logger, 'CRITICAL', { exception: final }, `Error while handling an error: ${describeError(final)}`);
      const status = statusOf(original);
      return new Response(`${status} ${statusText(status)}\n`, status, {
        'content-type': 'text/plain; charset=UTF-8',
        'cache-control': 'no-cache, private',
      });
    }
  }
}

/** The response once `pending` settles, with the request popped off `stack`; a failure goes to `failed`, which pops it. */
function poppedWhenSettled(
  pending: Promise<Response>,
  stack: RequestStack,
  failed: (error: unknown) => Response | Promise<Response>,
): Promise<Response> {
  return pending.then((response) => {
    stack.pop();
    return response;
  }, failed);
}

/** `next()` now when every listener of a dispatch was synchronous, otherwise once they have all run. */
function after<T>(pending: void | Promise<void>, next: () => T | Promise<T>): T | Promise<T> {
  return pending === undefined ? next() : pending.then(next);
}

function controllerReturnedNoResponse(controller: Controller, result: unknown): Error {
  const described = result === null ? 'null' : result === undefined ? 'undefined' : `a ${typeof result === 'object' ? (result.constructor?.name ?? 'object') : typeof result}`;
  let message = `The controller "${controllerName(controller)}" must return a "Response" object but it returned ${described}.`;
  if (result === null || result === undefined) message += ' Did you forget to add a return statement somewhere in your controller?';
  return new Error(message);
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
