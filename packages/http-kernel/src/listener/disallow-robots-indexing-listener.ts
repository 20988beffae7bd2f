import type { EventSubscriber, SubscribedEvents } from '../dispatcher/types.js';
import type { KernelEventMap } from '../event/kernel-events.js';
import type { ResponseEvent } from '../event/response-event.js';

/**
 * Adds `X-Robots-Tag: noindex` to every response (main and sub-requests) that has no
 * X-Robots-Tag yet, so a debug or staging host is not indexed. Register it when the host runs
 * in debug mode (the usual default) or when configured to keep search engines out.
 */
export class DisallowRobotsIndexingListener implements EventSubscriber<KernelEventMap> {
  /** Last of the response listeners: any listener that set its own X-Robots-Tag wins. */
  static readonly RESPONSE_PRIORITY = -255;

  getSubscribedEvents(): SubscribedEvents<KernelEventMap> {
    return {
      // A sub-request's response gets the header from its main request's kernel.response.
      'kernel.response': [this.onKernelResponse, DisallowRobotsIndexingListener.RESPONSE_PRIORITY, { mainRequestOnly: true }],
    };
  }

  onKernelResponse(event: ResponseEvent): void {
    if (!event.response.headers.has('x-robots-tag')) event.response.headers.set('x-robots-tag', 'noindex');
  }
}
