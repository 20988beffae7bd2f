import { ArgumentResolver } from '../controller/argument-resolver.js';
import type { Controller } from '../controller/controller.js';
import { controllerName } from '../controller/controller.js';
import { ControllerResolver } from '../controller/controller-resolver.js';
import { UnownedDeclarationError, unownedDeclarations } from '../declaration/declaration-owners.js';
import { PendingArgument } from '../declaration/pending-argument.js';
import { unresolvableArguments } from '../declaration/unresolvable-arguments.js';
import type { EventDispatcherInterface, ListenerFailure } from '../dispatcher/types.js';
import { errorOf } from '../error/deferred-http-error.js';
import { statusOf } from '../error/error-status.js';
import { NotFoundHttpError, statusText } from '../error/http-error.js';
import { ControllerArgumentsEvent } from '../event/controller-arguments-event.js';
import { ControllerEvent } from '../event/controller-event.js';
import { ExceptionEvent } from '../event/exception-event.js';
import { FinishRequestEvent } from '../event/finish-request-event.js';
import type { KernelEventMap } from '../event/kernel-events.js';
import { RequestEvent } from '../event/request-event.js';
import { ResponseEvent } from '../event/response-event.js';
import { TerminateEvent } from '../event/terminate-event.js';
import { ViewEvent } from '../event/view-event.js';
import { isAbandonment } from '../http/cancellation.js';
import { enterRequestStack, finishOnRequestStack, leaveRequestStack, type Request } from '../http/request.js';
import { Response } from '../http/response.js';
import { andThen, attempt, fromThenable, type MaybePromise } from '../internal/maybe-promise.js';
import { logAt, stderrLogger, type Logger } from '../log/logger.js';
import { tracedCall } from '../tracing/traced-call.js';
import { boundCallScopes } from '../tracing/traced-call-scopes.js';
import { KernelRequestTrace, kernelRequestChannel } from '../tracing/tracing-channels.js';
import type { HttpKernelInterface } from '../contract/http-kernel-interface.js';
import { RequestType } from '../contract/request-type.js';

export interface HttpKernelOptions {
  /** `EventDispatcher`, or a decorator of it (`TraceableEventDispatcher` in debug mode). */
  dispatcher: EventDispatcherInterface<KernelEventMap>;
  controllerResolver?: ControllerResolver;
  argumentResolver?: ArgumentResolver;
  /**
   * Receives what the kernel itself must report: errors swallowed while answering an error.
   * Defaults to `stderrLogger` (CRITICAL records on stderr); `nullLogger` silences it.
   */
  logger?: Logger;
}

const REDIRECT_STATUSES = new Set([201, 301, 302, 303, 307, 308]);
const requestScopes = boundCallScopes('switchboard.kernel.request');

type CallableController = (...args: unknown[]) => unknown;

/**
 * One call of `handle()`: what is handled, how, and where it stands. The kernel's steps are its
 * methods, each handed the value the step before produced and this object, so no step needs a
 * closure of its own (docs/decisions.md D12).
 */
class Handling {
  finishRequestDispatched = false;
  /** The controller to call, once `kernel.controller` has had its say. */
  controller: Controller | null = null;

  constructor(
    readonly request: Request,
    readonly type: RequestType,
    readonly catchErrors: boolean,
    /** The context published on `switchboard.kernel.request`, when that channel has subscribers. */
    readonly trace: KernelRequestTrace | null,
  ) {}
}

/** A step of the lifecycle: the value the step before produced, and the handling. */
type Step<T, R> = (this: HttpKernel, value: T, h: Handling) => MaybePromise<R>;

/**
 * Takes a request through `kernel.request` → controller → `kernel.controller_arguments` →
 * [`kernel.view`] → `kernel.response` → `kernel.finish_request`, with `kernel.exception` on any
 * error. See docs/events.md for what each step may change.
 *
 * Each step runs as soon as the one before it has: at once, unless that one returned a promise
 * (see `maybe-promise.ts`). A request that never waits is answered without a promise. An event
 * nobody listens to is not built (docs/decisions.md D4).
 */
export class HttpKernel implements HttpKernelInterface {
  readonly dispatcher: EventDispatcherInterface<KernelEventMap>;
  readonly controllerResolver: ControllerResolver;
  readonly argumentResolver: ArgumentResolver;
  readonly #logger: Logger;
  #declarationsChecked = false;

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
   * write the response the moment it exists. Never throws: an error that is not turned into a
   * response rejects the promise returned.
   */
  handleEagerly(request: Request, type: RequestType = RequestType.MAIN, catchErrors = true): MaybePromise<Response> {
    if (!this.#declarationsChecked) {
      try {
        this.checkDeclarations();
      } catch (error) {
        return Promise.reject(error);
      }
    }
    if (kernelRequestChannel.hasSubscribers) {
      const trace = new KernelRequestTrace(request, type);
      return tracedCall(kernelRequestChannel, requestScopes, trace, () =>
        this.#handleOnStack(new Handling(request, type, catchErrors, trace)),
      );
    }
    return this.#handleOnStack(new Handling(request, type, catchErrors, null));
  }

  /**
   * Throws an `UnownedDeclarationError` listing every route declaration (a `_`-prefixed route
   * default, a controller-argument option) that no registered subscriber acts on, each with the
   * listener to register, and every controller argument that nothing gives a value (no route
   * parameter or default, no attribute a listener sets, no resolver). Runs before the first request is handled; `serve()` and the test
   * client call it before any traffic, so a forgotten listener stops the start instead of
   * leaving a route silently open.
   */
  checkDeclarations(): void {
    const subscribers = [...this.dispatcher.getSubscribers()];
    const unowned = unownedDeclarations(subscribers);
    const unresolvable = unresolvableArguments(subscribers, this.argumentResolver, this.controllerResolver);
    if (unowned.length > 0 || unresolvable.length > 0) throw new UnownedDeclarationError(unowned, unresolvable);
    this.#declarationsChecked = true;
  }

  /** The handling with its request on top of the request stack; never throws (see `handleEagerly`). */
  #handleOnStack(h: Handling): MaybePromise<Response> {
    enterRequestStack(h.request);
    let response: MaybePromise<Response>;
    try {
      response = this.#handleCaught(h);
    } catch (error) {
      leaveRequestStack(h.request);
      return Promise.reject(error);
    }
    if (response instanceof Promise) return response.finally(() => leaveRequestStack(h.request));
    leaveRequestStack(h.request);
    return response;
  }

  /** The lifecycle's response, or the error branch's for an error it threw or a failure a listener returned. */
  #handleCaught(h: Handling): MaybePromise<Response> {
    let outcome: MaybePromise<Response | ListenerFailure>;
    try {
      outcome = this.#handleRaw(h);
    } catch (error) {
      return this.#handleError(error, h);
    }
    if (outcome instanceof Promise) {
      return outcome.then(
        (answer) => this.#answered(answer, h),
        (error: unknown) => this.#handleError(error, h),
      );
    }
    return this.#answered(outcome, h);
  }

  #answered(answer: Response | ListenerFailure, h: Handling): MaybePromise<Response> {
    return answer instanceof Response ? answer : this.#handleError(answer.error, h);
  }

  /**
   * Dispatches `kernel.terminate` once the response was sent; `responseFinished` (from the host
   * that wrote it) says whether it went out in full (`TerminateEvent.responseFinished`). Never
   * rejects: failures are logged.
   */
  terminate(request: Request, response: Response, responseFinished?: boolean): Promise<void> {
    return Promise.resolve(this.terminateEagerly(request, response, responseFinished));
  }

  /**
   * `terminate()` without a promise when none is needed: returns nothing once every
   * `kernel.terminate` listener has run, or a promise when one of them had to wait. For hosts,
   * which terminate every request. Never throws nor rejects: failures are logged.
   */
  terminateEagerly(request: Request, response: Response, responseFinished?: boolean): MaybePromise<void> {
    if (!this.dispatcher.isObserved('kernel.terminate')) return;
    let dispatched: MaybePromise<TerminateEvent>;
    try {
      dispatched = fromThenable(
        this.dispatcher.dispatch('kernel.terminate', new TerminateEvent(this, request, response, responseFinished)),
      );
    } catch (error) {
      this.#terminateFailed(error);
      return;
    }
    if (dispatched instanceof Promise) {
      return dispatched.then(
        () => undefined,
        (error: unknown) => this.#terminateFailed(error),
      );
    }
  }

  #terminateFailed(error: unknown): void {
    logAt(this.#logger, 'CRITICAL', { err: error }, `Error during kernel.terminate: ${describeError(error)}`);
  }

  /** `step(value, h)` at once when `value` is there; once it resolves when it is a promise (only then is a closure made). */
  #then<T, R>(value: MaybePromise<T>, step: Step<T, R>, h: Handling): MaybePromise<R> {
    return value instanceof Promise ? value.then((resolved) => step.call(this, resolved, h)) : step.call(this, value, h);
  }

  /**
   * The lifecycle, step by step, each step a method below. An error thrown anywhere in it goes to
   * `#handleError`, and so does the one a `kernel.request` listener failed the request with
   * (returned here).
   */
  #handleRaw(h: Handling): MaybePromise<Response | ListenerFailure> {
    if (!this.dispatcher.isObserved('kernel.request', h.type)) return this.#controllerStep(h);
    return this.#then(this.dispatcher.dispatch('kernel.request', new RequestEvent(this, h.request, h.type)), this.#afterRequestEvent, h);
  }

  /** A `kernel.request` listener answered, failed the request, or left it to the controller. */
  #afterRequestEvent(requested: RequestEvent, h: Handling): MaybePromise<Response | ListenerFailure> {
    if (requested.failure !== null) return requested.failure;
    if (requested.response !== null) return this.#filterResponse(requested.response, h);
    return this.#controllerStep(h);
  }

  /** The controller the request names, then `kernel.controller`: listeners may replace it. */
  #controllerStep(h: Handling): MaybePromise<Response> {
    const controller = this.#controllerFor(h.request);
    if (!this.dispatcher.isObserved('kernel.controller', h.type)) return this.#argumentsStep(controller, h);
    return this.#then(
      this.dispatcher.dispatch('kernel.controller', new ControllerEvent(this, h.request, h.type, controller)),
      this.#afterControllerEvent,
      h,
    );
  }

  #afterControllerEvent(event: ControllerEvent, h: Handling): MaybePromise<Response> {
    return this.#argumentsStep(event.controller, h);
  }

  /** The controller's arguments, resolved. */
  #argumentsStep(controller: Controller, h: Handling): MaybePromise<Response> {
    h.controller = controller;
    return this.#then(this.argumentResolver.getArguments(h.request, controller), this.#controllerArgumentsStep, h);
  }

  /** `kernel.controller_arguments`: listeners may replace the controller or its arguments. */
  #controllerArgumentsStep(args: unknown[], h: Handling): MaybePromise<Response> {
    if (!this.dispatcher.isObserved('kernel.controller_arguments', h.type)) return this.#callController(args, h);
    return this.#then(
      this.dispatcher.dispatch('kernel.controller_arguments', new ControllerArgumentsEvent(this, h.request, h.type, h.controller!, args)),
      this.#afterControllerArgumentsEvent,
      h,
    );
  }

  #afterControllerArgumentsEvent(event: ControllerArgumentsEvent, h: Handling): MaybePromise<Response> {
    h.controller = event.controller;
    return this.#callController(event.arguments, h);
  }

  #callController(args: unknown[], h: Handling): MaybePromise<Response> {
    assertNoPendingArgument(h.controller!, args);
    return this.#then(fromThenable((h.controller as CallableController)(...args)), this.#toResponse, h);
  }

  #controllerFor(request: Request): Controller {
    const controller = this.controllerResolver.getController(request);
    if (controller === null) {
      throw new NotFoundHttpError(`Unable to find the controller for path "${request.rawPath}". The route is wrongly configured.`);
    }
    return controller;
  }

  /** A Response as it is; anything else through `kernel.view`, whose listeners must make one. */
  #toResponse(result: unknown, h: Handling): MaybePromise<Response> {
    if (result instanceof Response) return this.#filterResponse(result, h);
    if (!this.dispatcher.isObserved('kernel.view', h.type)) throw controllerReturnedNoResponse(h.controller!, result);
    return this.#then(this.dispatcher.dispatch('kernel.view', new ViewEvent(this, h.request, h.type, result)), this.#afterViewEvent, h);
  }

  #afterViewEvent(viewed: ViewEvent, h: Handling): MaybePromise<Response> {
    if (viewed.response === null) throw controllerReturnedNoResponse(h.controller!, viewed.controllerResult);
    return this.#filterResponse(viewed.response, h);
  }

  /** `kernel.response`, then `kernel.finish_request`; the response as the listeners left it, prepared for its request. */
  #filterResponse(response: Response, h: Handling): MaybePromise<Response> {
    response.prepare(h.request);
    if (!this.dispatcher.isObserved('kernel.response', h.type)) return this.#finishWith(response, h);
    return this.#then(
      this.dispatcher.dispatch('kernel.response', new ResponseEvent(this, h.request, h.type, response)),
      this.#afterResponseEvent,
      h,
    );
  }

  #afterResponseEvent(filtered: ResponseEvent, h: Handling): MaybePromise<Response> {
    // A listener may have put a response of its own in place.
    return this.#finishWith(filtered.response.prepare(h.request), h);
  }

  /** `response`, after `kernel.finish_request`. */
  #finishWith(response: Response, h: Handling): MaybePromise<Response> {
    const finished = this.#finishRequest(h);
    return finished instanceof Promise ? finished.then(() => response) : response;
  }

  /** `kernel.finish_request`, once per handling whichever way it went (a second call does nothing). */
  #finishRequest(h: Handling): MaybePromise<unknown> {
    if (h.finishRequestDispatched) return undefined;
    h.finishRequestDispatched = true;
    finishOnRequestStack(h.request);
    if (!this.dispatcher.isObserved('kernel.finish_request', h.type)) return undefined;
    return this.dispatcher.dispatch('kernel.finish_request', new FinishRequestEvent(this, h.request, h.type));
  }

  /**
   * An error left the lifecycle. The rule: `kernel.exception` turns it into the response. When no
   * listener answers, or the error branch fails, a sub-request's caller (and a caller who asked for
   * errors) gets the error; a main request gets one more `kernel.exception` pass for the error
   * that escaped, and if that fails too, a plain page with the original error's status.
   * A `DeferredHttpError` (a listener's failure) stays one until someone reads the error.
   */
  #handleError(error: unknown, h: Handling): MaybePromise<Response> {
    if (h.trace !== null) h.trace.exception = errorOf(error);
    if (!h.catchErrors) return this.#finishThenThrow(errorOf(error), h);
    let response: MaybePromise<Response>;
    try {
      response = this.#handleThrowable(error, h);
    } catch (escaped) {
      return this.#errorBranchFailed(escaped, error, h);
    }
    return response instanceof Promise ? response.catch((escaped: unknown) => this.#errorBranchFailed(escaped, error, h)) : response;
  }

  /** `escaped` left the error branch of `error`: see `#handleError`. */
  #errorBranchFailed(escaped: unknown, error: unknown, h: Handling): MaybePromise<Response> {
    if (h.type !== RequestType.MAIN) throw escaped;
    return attempt(
      () => this.#handleThrowable(escaped, h),
      (final) => {
        // The client left or the server stopped waiting: an ending, not a fault.
        const level = isAbandonment(final, h.request) ? 'INFO' : 'CRITICAL';
        logAt(this.#logger, level, { err: final }, `Error while handling an error: ${describeError(final)}`);
        return this.#plainErrorPage(statusOf(error), h);
      },
    );
  }

  /** `kernel.exception`; the response a listener set, with the error's status forced on it, filtered. */
  #handleThrowable(error: unknown, h: Handling): MaybePromise<Response> {
    if (!this.dispatcher.isObserved('kernel.exception', h.type)) return this.#finishThenThrow(errorOf(error), h);
    return this.#then(
      this.dispatcher.dispatch('kernel.exception', new ExceptionEvent(this, h.request, h.type, error)),
      this.#afterExceptionEvent,
      h,
    );
  }

  #afterExceptionEvent(event: ExceptionEvent, h: Handling): MaybePromise<Response> {
    const response = event.response;
    if (response === null) return this.#finishThenThrow(event.throwable, h);
    forceErrorStatus(event, response);
    let filtered: MaybePromise<Response>;
    try {
      filtered = this.#filterResponse(response, h);
    } catch (filterError) {
      return this.#unfiltered(filterError, response);
    }
    return filtered instanceof Promise ? filtered.catch((filterError: unknown) => this.#unfiltered(filterError, response)) : filtered;
  }

  /** As Symfony does: the error response goes out unfiltered rather than not at all. */
  #unfiltered(filterError: unknown, response: Response): Response {
    logAt(this.#logger, 'CRITICAL', { err: filterError }, `Error while filtering an error response: ${describeError(filterError)}`);
    return response;
  }

  /** `kernel.finish_request`, then `error` thrown (or the promise rejected with it). */
  #finishThenThrow(error: unknown, h: Handling): MaybePromise<never> {
    return andThen(this.#finishRequest(h), () => {
      throw error;
    });
  }

  /** The last resort: a plain page with `status`, after the request's `kernel.finish_request` if it is still due. */
  #plainErrorPage(status: number, h: Handling): MaybePromise<Response> {
    return attempt(
      () => andThen(this.#finishRequest(h), () => plainErrorPage(status)),
      (failed) => {
        logAt(this.#logger, 'CRITICAL', { err: failed }, `Error during kernel.finish_request: ${describeError(failed)}`);
        return plainErrorPage(status);
      },
    );
  }
}

/** The error's status (and an HTTP error's headers) on a response that is neither an error nor a redirect, unless a listener allowed it. */
function forceErrorStatus(event: ExceptionEvent, response: Response): void {
  if (event.isAllowingCustomResponseCode() || response.isClientError || response.isServerError || REDIRECT_STATUSES.has(response.status)) {
    return;
  }
  response.status = event.status;
  for (const [name, value] of Object.entries(event.errorHeaders)) response.headers.set(name, value);
}

/** Throws when an argument is still a stand-in its listener should have replaced (see `PendingArgument`). */
function assertNoPendingArgument(controller: Controller, args: readonly unknown[]): void {
  for (const value of args) {
    if (value instanceof PendingArgument) {
      throw new Error(
        `Controller "${controllerName(controller)}" would receive a stand-in for its "${value.argumentName}" argument: ` +
          `register ${value.missingRegistration}.`,
      );
    }
  }
}

function plainErrorPage(status: number): Response {
  return new Response(`${status} ${statusText(status)}\n`, status, { 'content-type': 'text/plain; charset=UTF-8' });
}

function controllerReturnedNoResponse(controller: Controller, result: unknown): Error {
  const described =
    result === null
      ? 'null'
      : result === undefined
        ? 'undefined'
        : `a ${typeof result === 'object' ? (result.constructor?.name ?? 'object') : typeof result}`;
  let message = `The controller "${controllerName(controller)}" must return a "Response" object but it returned ${described}.`;
  if (result === null || result === undefined) message += ' Did you forget to add a return statement somewhere in your controller?';
  return new Error(message);
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
