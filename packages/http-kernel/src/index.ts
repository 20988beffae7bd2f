/**
 * @switchboard/http-kernel — the kernel, its events and dispatcher, the request/response model,
 * the HTTP errors and logging. Every other Switchboard package plugs into it as listeners. Other
 * concerns have entries of their own: `./sse` (server-sent events), `./tracing` (tracing channels,
 * the traceable dispatcher, Server-Timing), `./redaction` (secrets hidden, control characters
 * escaped), `./locale` (the locale listener), `./view` (controllers that return data, encoders),
 * `./negotiation` (`Accept`-style headers), `./cookies` (cookie options, signed and sealed values)
 * and `./value-resolvers` (the built-in argument value resolvers).
 * @module
 */
export { Event } from './dispatcher/event.js';
export { EventDispatcher } from './dispatcher/event-dispatcher.js';
export type {
  DispatchableEvent,
  ListenerFailure,
  EventDispatcherInterface,
  EventMap,
  EventName,
  EventSubscriber,
  Listener,
  ListenerFacts,
  ListenerOptions,
  ListenerDeclaration,
  RegisteredListener,
  SubscribedEvents,
} from './dispatcher/types.js';
export { UnownedDeclarationError } from './declaration/declaration-owners.js';
export { PendingArgument } from './declaration/pending-argument.js';
export type { OwnedDeclarations, RouteController, RouteDeclaration } from './declaration/route-declaration.js';
export type { UnresolvableArgument } from './declaration/unresolvable-arguments.js';

export { HeaderBag, type HeaderInit, type HeaderValue } from './http/header-bag.js';
export { ResponseHeaderBag } from './http/response-header-bag.js';
export type { MaybePromise } from './internal/maybe-promise.js';
export { AttributeBag, type RequestAttributes } from './http/attribute-bag.js';
export {
  Request,
  RequestStack,
  type ClientConnection,
  type DuplicateOverrides,
  type RequestBody,
  type RequestInit,
  type Scheme,
} from './http/request.js';
export { ClientGoneError, ServerShutdownError, type RequestSignalSource } from './http/cancellation.js';
export { addVary } from './http/vary.js';
export { parseHttpDate } from './http/parse-http-date.js';
export { JsonResponse, RedirectResponse, Response, type ResponseBody } from './http/response.js';

export { KernelEvent } from './event/kernel-event.js';
export { RequestEvent } from './event/request-event.js';
export { ControllerEvent } from './event/controller-event.js';
export { ControllerArgumentsEvent } from './event/controller-arguments-event.js';
export { ViewEvent } from './event/view-event.js';
export { ExceptionEvent } from './event/exception-event.js';
export { ResponseEvent } from './event/response-event.js';
export { FinishRequestEvent } from './event/finish-request-event.js';
export { TerminateEvent } from './event/terminate-event.js';
export { KernelEvents, type KernelEventMap } from './event/kernel-events.js';

export {
  defineController,
  type ArgumentDeclaration,
  type ArgumentMetadata,
  type Controller,
  type ControllerNeeds,
  type RouteArguments,
  type UntypedController,
} from './controller/controller.js';
export { ControllerResolver } from './controller/controller-resolver.js';
export { ArgumentResolver } from './controller/argument-resolver.js';
export type { ValueResolver } from './controller/value-resolver/value-resolver.js';

export {
  AccessDeniedHttpError,
  BadRequestHttpError,
  HttpError,
  MethodNotAllowedHttpError,
  NotFoundHttpError,
  PayloadTooLargeHttpError,
  ServiceUnavailableHttpError,
  UnauthorizedHttpError,
  UnprocessableEntityHttpError,
  UnsupportedMediaTypeHttpError,
  withoutStackTrace,
  type HttpErrorOptions,
} from './error/http-error.js';
export { NotAcceptableHttpError } from './error/not-acceptable-http-error.js';
export { DeferredHttpError, errorOf } from './error/deferred-http-error.js';

export { HttpKernel, type HttpKernelOptions } from './kernel/http-kernel.js';
export type { HttpKernelInterface } from './contract/http-kernel-interface.js';
export { RequestType } from './contract/request-type.js';

export {
  createStderrLogger,
  isLogged,
  logArguments,
  logAt,
  MemoryLogger,
  nullLogger,
  RecordingLogger,
  stderrLogger,
  toLogLevel,
  type Logger,
  type LogLevel,
  type LogLevelName,
  type LogMethod,
  type LogRecord,
} from './log/logger.js';

export { DisallowRobotsIndexingListener } from './listener/disallow-robots-indexing-listener.js';
export { RequestLogger, requestIdOf } from './log/request-logger.js';
