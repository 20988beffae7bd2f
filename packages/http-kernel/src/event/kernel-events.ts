import type { ControllerArgumentsEvent } from './controller-arguments-event.js';
import type { ControllerEvent } from './controller-event.js';
import type { ExceptionEvent } from './exception-event.js';
import type { FinishRequestEvent } from './finish-request-event.js';
import type { RequestEvent } from './request-event.js';
import type { ResponseEvent } from './response-event.js';
import type { TerminateEvent } from './terminate-event.js';
import type { ViewEvent } from './view-event.js';

/** The kernel's event names, in lifecycle order. */
export const KernelEvents = {
  REQUEST: 'kernel.request',
  CONTROLLER: 'kernel.controller',
  CONTROLLER_ARGUMENTS: 'kernel.controller_arguments',
  VIEW: 'kernel.view',
  RESPONSE: 'kernel.response',
  FINISH_REQUEST: 'kernel.finish_request',
  EXCEPTION: 'kernel.exception',
  TERMINATE: 'kernel.terminate',
} as const;

/** Event name → event class, so `dispatcher.on('kernel.response', e => …)` gets a ResponseEvent. */
export interface KernelEventMap {
  'kernel.request': RequestEvent;
  'kernel.controller': ControllerEvent;
  'kernel.controller_arguments': ControllerArgumentsEvent;
  'kernel.view': ViewEvent;
  'kernel.response': ResponseEvent;
  'kernel.finish_request': FinishRequestEvent;
  'kernel.exception': ExceptionEvent;
  'kernel.terminate': TerminateEvent;
}
