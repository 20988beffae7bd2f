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
 *
 * The absolute URL is built from the request's scheme and host. Unless those come from
 * configuration (`originIsConfigured`: the host was given its public base URL), the `Host` header
 * is the client's word, so a response that shared caches may store (no `private`, no `no-store`)
 * gets the link as a path only: a cache must not hand other clients a URL one client chose.
 */
export class DebugTokenLinkListener implements EventSubscriber<KernelEventMap> {
  /** After `ProfilerTokenListener.RESPONSE_PRIORITY`; with `ErrorListener.REMOVE_CSP_PRIORITY`. */
  static readonly RESPONSE_PRIORITY = -128;

  constructor(
    private readonly recorder: ProfilerRecorder,
    private readonly linkFor: ProfileLinkGenerator = requestRelativeLink,
    private readonly originIsConfigured = false,
  ) {}

  getSubscribedEvents(): SubscribedEvents<KernelEventMap> {
    return {
      'kernel.response': [this.onKernelResponse, DebugTokenLinkListener.RESPONSE_PRIORITY],
    };
  }

  onKernelResponse(event: ResponseEvent): void {
    if (this.recorder.chainOf(event.request) === null) return;
    const headers = event.response.headers;
    const token = headers.get(DEBUG_TOKEN_HEADER);
    if (token === undefined) return;
    try {
      const link = this.linkFor(token, event.request);
      const shared = !this.originIsConfigured && sharedCachesMayStore(headers.get('cache-control'));
      headers.set(DEBUG_TOKEN_LINK_HEADER, shared ? pathOf(link) : link);
      headers.delete(DEBUG_ERROR_HEADER);
    } catch (error) {
      headers.delete(DEBUG_TOKEN_LINK_HEADER);
      headers.set(
        DEBUG_ERROR_HEADER,
        `Unable to generate the profiler link: ${error instanceof Error ? error.message : String(error)}`.replace(/[\r\n]+/g, ' '),
      );
    }
  }
}

/** Conservative: only an unqualified `private` or a `no-store` keeps a response out of shared caches. */
function sharedCachesMayStore(cacheControl: string | undefined): boolean {
  if (cacheControl === undefined) return true;
  const directives = cacheControl
    .toLowerCase()
    .split(',')
    .map((directive) => directive.trim());
  return !directives.includes('private') && !directives.some((directive) => directive === 'no-store' || directive.startsWith('no-store='));
}

function pathOf(link: string): string {
  if (!URL.canParse(link)) return link;
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}
