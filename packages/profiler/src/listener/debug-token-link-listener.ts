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

/** An unqualified `private`, or `no-store` with or without a value, among comma-separated directives. */
const KEEPS_OUT_OF_SHARED_CACHES = /(?:^|,)\s*(?:private|no-store(?:=[^,]*)?)\s*(?:,|$)/i;

/** Conservative: only an unqualified `private` or a `no-store` keeps a response out of shared caches. */
function sharedCachesMayStore(cacheControl: string | undefined): boolean {
  return cacheControl === undefined || !KEEPS_OUT_OF_SHARED_CACHES.test(cacheControl);
}

/** A path and query the URL parser leaves as they are: no dot segment, nothing it would encode or drop. */
const PLAIN_PATH_AND_QUERY = /^\/[A-Za-z0-9\-_~!$&'()*+,;=:@/]*(?:\?[A-Za-z0-9\-._~!$&()*+,;=:@/?%]+)?$/;
/** An authority of letters, digits, dots, dashes, colons and brackets only (no user info, no `?`, `#` or `\\`). */
const PLAIN_AUTHORITY = /^https?:\/\/[A-Za-z0-9.\-:[\]]+$/;
/** Origins already checked by the URL parser; links share a few of them. */
const parsedOrigins = new Map<string, boolean>();
const MAX_PARSED_ORIGINS = 64;

/** The path and query of `link` as the URL parser gives them; `link` itself when it does not parse. */
function pathOf(link: string): string {
  // Most links are an origin already seen and a plain path: sliced, not parsed.
  const authorityStart = link.startsWith('https://') ? 8 : link.startsWith('http://') ? 7 : -1;
  const pathStart = authorityStart < 0 ? -1 : link.indexOf('/', authorityStart);
  if (pathStart > authorityStart) {
    const path = link.slice(pathStart);
    if (PLAIN_PATH_AND_QUERY.test(path) && originParses(link.slice(0, pathStart))) return path;
  }
  if (!URL.canParse(link)) return link;
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

function originParses(origin: string): boolean {
  let parses = parsedOrigins.get(origin);
  if (parses === undefined) {
    parses = PLAIN_AUTHORITY.test(origin) && URL.canParse(origin);
    if (parsedOrigins.size >= MAX_PARSED_ORIGINS) parsedOrigins.delete(parsedOrigins.keys().next().value as string);
    parsedOrigins.set(origin, parses);
  }
  return parses;
}
