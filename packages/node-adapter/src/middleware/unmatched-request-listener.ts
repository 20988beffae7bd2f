import {
  NotFoundHttpError,
  Response,
  type EventSubscriber,
  type ExceptionEvent,
  type KernelEventMap,
  type SubscribedEvents,
} from '@switchboard/http-kernel';

declare module '@switchboard/http-kernel' {
  interface RequestAttributes {
    /** Set by the middleware: an unmatched request goes back to the host's `next()`. */
    _fall_through?: boolean;
    /** Set when a `_fall_through` request matched no route; the middleware then calls `next()`. */
    _unmatched?: boolean;
  }
}

/**
 * Lets a request that no route matched fall through to the host framework (Express, Connect)
 * instead of becoming a 404 page: on a main request marked `_fall_through`, a `NotFoundHttpError`
 * raised before any controller was chosen is answered with an empty placeholder 404 that the
 * middleware never sends, and the request is marked `_unmatched`.
 */
export class UnmatchedRequestListener implements EventSubscriber<KernelEventMap> {
  /**
   * Before `ErrorListener.LOG_PRIORITY` and `ErrorListener.SUB_REQUEST_PRIORITY`: a request handed back to the
   * host is not an error of this application, so it is neither logged nor rendered.
   */
  static readonly EXCEPTION_PRIORITY = 64;

  getSubscribedEvents(): SubscribedEvents<KernelEventMap> {
    return {
      'kernel.exception': [this.onKernelException, UnmatchedRequestListener.EXCEPTION_PRIORITY, { mainRequestOnly: true }],
    };
  }

  onKernelException(event: ExceptionEvent): void {
    const request = event.request;
    if (request.attributes.get('_fall_through') !== true) return;
    if (!(event.throwable instanceof NotFoundHttpError) || request.attributes.has('_controller')) return;
    request.attributes.set('_unmatched', true);
    event.setResponse(new Response('', 404));
  }
}
