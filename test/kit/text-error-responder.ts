import {
  HttpError,
  Response,
  type EventSubscriber,
  type ExceptionEvent,
  type KernelEventMap,
  type SubscribedEvents,
} from '@switchboard/http-kernel';
import { statusOf } from '@switchboard/http-kernel/internal';

/**
 * Stands in for the error controller where a package's tests must not depend on it: every error
 * becomes `<status> <message>` as plain text, with the error's own headers (Allow…), and still
 * goes through kernel.response as error pages do. Records every error it answered.
 */
export class TextErrorResponder implements EventSubscriber<KernelEventMap> {
  /** Where `ErrorListener` answers. */
  static readonly EXCEPTION_PRIORITY = -128;

  /** Every error that reached kernel.exception, in order. */
  readonly errors: unknown[] = [];

  getSubscribedEvents(): SubscribedEvents<KernelEventMap> {
    return { 'kernel.exception': [this.onKernelException, TextErrorResponder.EXCEPTION_PRIORITY] };
  }

  onKernelException(event: ExceptionEvent): void {
    const error = event.throwable;
    this.errors.push(error);
    const status = statusOf(error);
    const message = error instanceof Error ? error.message : String(error);
    const response = new Response(`${status} ${message}`, status, { 'content-type': 'text/plain; charset=UTF-8' });
    if (error instanceof HttpError) for (const [name, value] of Object.entries(error.headers)) response.headers.set(name, value);
    event.setResponse(response);
  }
}
