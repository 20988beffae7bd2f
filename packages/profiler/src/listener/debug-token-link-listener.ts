import type { EventSubscriber, KernelEventMap, Request, ResponseEvent, SubscribedEvents } from '@switchboard/http-kernel';
import type { ProfilerRecorder } from '../recording/profiler-recorder.js';
import { DEBUG_TOKEN_HEADER } from './profiler-token-listener.js';

export const DEBUG_TOKEN_LINK_HEADER = 'x-debug-token-link';
export const DEBUG_ERROR_HEADER = 'x-debug-error';

/** The absolute URL of the profile page of `token` (route `_profiler`), for a response to `request`. */
export type ProfileLinkGenerator = (token: string, request: Request) => string;

/** Without a router: `<scheme>://<host>[:port]/_profiler/<token>` from the request itself. */
export const requestRelativeLink: ProfileLinkGenerator = (token, request) =>
  `${request.schemeAndHttpHost}/_profiler/${encodeURIComponent(token)}`;

/**
 * Sets `x-debug-token-link` to the profile page of the response's `x-debug-token`, so the link
 * always names the same profile as the token header. If the URL cannot be generated the response
 * gets `x-debug-error` instead.
 */
export class DebugTokenLinkListener implements EventSubscriber<KernelEventMap> {
  /** After the token listener (−100); with the error listener's CSP removal. */
  static readonly RESPONSE_PRIORITY = -128;

  constructor(
    private readonly recorder: ProfilerRecorder,
    private readonly linkFor: ProfileLinkGenerator = requestRelativeLink,
  ) {}

  getSubscribedEvents(): SubscribedEvents<KernelEventMap> {
    return {
      'kernel.response': {
        listener: (event) => this.onKernelResponse(event),
        priority: DebugTokenLinkListener.RESPONSE_PRIORITY,
        name: 'DebugTokenLinkListener.onKernelResponse',
      },
    };
  }

  onKernelResponse(event: ResponseEvent): void {
    if (this.recorder.chainOf(event.request) === null) return;
    const headers = event.response.headers;
    const token = headers.get(DEBUG_TOKEN_HEADER);
    if (token === undefined) return;
    try {
      headers.set(DEBUG_TOKEN_LINK_HEADER, this.linkFor(token, event.request));
      headers.delete(DEBUG_ERROR_HEADER);
    } catch (error) {
      headers.delete(DEBUG_TOKEN_LINK_HEADER);
      headers.set(DEBUG_ERROR_HEADER, `Unable to generate the profiler link: ${error instanceof Error ? error.message : String(error)}`.replace(/[\r\n]+/g, ' '));
    }
  }
}
