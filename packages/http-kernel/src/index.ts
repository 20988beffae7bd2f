/**
 * @switchboard/http-kernel — the kernel, its events and dispatcher, the request/response model
 * and the HTTP errors. Every other Switchboard package plugs into it as listeners.
 * @module
 */
export { Event } from './dispatcher/event.js';
export { EventDispatcher } from './dispatcher/event-dispatcher.js';
export {
  TraceableEventDispatcher,
  type DispatchTrace,
  type DispatchTracer,
  type ListenerCall,
  type ListenerInfo,
} from './dispatcher/traceable-event-dispatcher.js';
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
export type { OwnedDeclarations, RouteDeclaration } from './declaration/route-declaration.js';

export { HeaderBag, type HeaderInit, type HeaderValue } from './http/header-bag.js';
export type { MaybePromise } from './internal/maybe-promise.js';
export {
  AttributeBag,
  Request,
  RequestStack,
  type ClientConnection,
  type DuplicateOverrides,
  type RequestAttributes,
  type RequestBody,
  type RequestInit,
  type Scheme,
} from './http/request.js';
export { ClientGoneError, ServerShutdownError, type RequestSignalSource } from './http/cancellation.js';
export {
  EventStreamResponse,
  type EventStreamSource,
  type EventStreamContext,
  type EventStreamEnding,
  type EventStreamOptions,
  type EventStreamOutcome,
} from './http/event-stream-response.js';
export {
  DEFAULT_EVENT_STREAMS_PER_KEY,
  DEFAULT_EVENT_STREAMS_TOTAL,
  EventStreamCaps,
  type EventStreamCapsOptions,
} from './http/event-stream-caps.js';
export {
  formatRetryHint,
  formatServerSentEvent,
  lastEventIdOf,
  type ServerSentEvent,
} from './http/server-sent-event.js';
export { addVary } from './http/vary.js';
export { JsonResponse, RedirectResponse, Response, type ResponseBody } from './http/response.js';
export { RequestCookies } from './http/cookies/request-cookies.js';
export { ResponseCookies } from './http/cookies/response-cookies.js';
export type { CookieOptions } from './http/cookies/cookie-options.js';
export { InvalidCookieError } from './http/cookies/cookie-validation.js';
export { CookieSigner } from './http/cookies/cookie-signer.js';
export { CookieSealer } from './http/cookies/cookie-sealer.js';

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
  argumentMetadataOf,
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
export { RequestValueResolver } from './controller/value-resolver/request-value-resolver.js';
export { RequestAttributeValueResolver } from './controller/value-resolver/request-attribute-value-resolver.js';
export { DefaultValueResolver } from './controller/value-resolver/default-value-resolver.js';

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
export { DeferredHttpError, errorOf } from './error/deferred-http-error.js';

export { HttpKernel, type HttpKernelOptions } from './kernel/http-kernel.js';
export type { HttpKernelInterface } from './contract/http-kernel-interface.js';
export { RequestType } from './contract/request-type.js';
export {
  KERNEL_LISTENER_CHANNEL,
  KERNEL_REQUEST_CHANNEL,
  kernelListenerChannel,
  kernelRequestChannel,
  TRACING_CHANNELS_VERSION,
  type KernelRequestContext,
  type ListenerCallContext,
} from './tracing/tracing-channels.js';
export type { TracedCallContext } from './tracing/traced-call.js';
export type { TracedCallScope } from './tracing/call-scopes.js';
export { bindCallScope, unbindCallScope, type TracedCallContexts, type TracedChannelName } from './tracing/traced-call-scopes.js';

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
export { REDACTED, redactCredentials } from './log/redact-credentials.js';
export {
  DEFAULT_EXACT_SECRET_NAMES,
  DEFAULT_SECRET_NAMES,
  redactSecrets,
  TextRedactor,
  type TextRedactorOptions,
} from './log/text-redactor.js';
export { escapeControlCharacters } from './log/escape-control-characters.js';
export { logSafeText } from './log/log-safe-text.js';

export { DefaultCacheControlListener } from './listener/default-cache-control-listener.js';
export { DisallowRobotsIndexingListener } from './listener/disallow-robots-indexing-listener.js';
export { ServerTimingListener, type ServerTimingListenerOptions } from './listener/server-timing-listener.js';
export { RequestLogger, requestIdOf } from './log/request-logger.js';
export { LocaleListener, type LocaleAware, type LocaleListenerOptions } from './listener/locale-listener.js';
