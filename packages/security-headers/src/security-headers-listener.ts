import type { EventSubscriber, KernelEventMap, OwnedDeclarations, ResponseEvent, SubscribedEvents } from '@switchboard/http-kernel';
import { assertSecurityHeaders, DEFAULT_SECURITY_HEADERS, type SecurityHeaders } from './security-headers.js';

declare module '@switchboard/http-kernel' {
  interface RequestAttributes {
    /** The route's security headers over the listener's (`null` leaves one out), or `false` for none. */
    _security_headers?: SecurityHeaders | false;
  }
}

export interface SecurityHeadersListenerOptions {
  /** Over `DEFAULT_SECURITY_HEADERS` for every response; `null` leaves a header out. */
  headers?: SecurityHeaders;
}

/** One header to set: its name, its value, whether it goes over HTTPS only. */
type Entry = readonly [name: string, value: string, secureOnly: boolean];

/**
 * Sets the security headers on every main response (error pages included: they are main
 * responses too), each one only if the response has none of its own: a page that brings its
 * own `Content-Security-Policy` (the profiler's) keeps it. `Strict-Transport-Security` goes on
 * HTTPS requests only, as RFC 6797 §7.2 requires. A route changes them with `_security_headers`.
 */
export class SecurityHeadersListener implements EventSubscriber<KernelEventMap> {
  /**
   * After the controller and the listeners that add headers, before `ErrorListener.REMOVE_CSP_PRIORITY`
   * (-128): in debug mode the error page's policy is removed as for any other (it must render).
   */
  static readonly RESPONSE_PRIORITY = -64;
  readonly #headers: SecurityHeaders;
  readonly #entries: readonly Entry[];
  /** A route's declaration merged and checked once, shared by every request of the route. */
  readonly #entriesByRoute = new WeakMap<SecurityHeaders, readonly Entry[]>();

  constructor(options: SecurityHeadersListenerOptions = {}) {
    assertSecurityHeaders(options.headers ?? {}, 'SecurityHeadersListener headers');
    this.#headers = { ...DEFAULT_SECURITY_HEADERS, ...options.headers };
    this.#entries = entriesOf(this.#headers);
  }

  /** The headers for answers no listener sees (the node adapter's `answerHeaders`): all but HSTS, which needs to know the request is secure. */
  plainAnswerHeaders(): Record<string, string> {
    return Object.fromEntries(this.#entries.filter(([, , secureOnly]) => !secureOnly).map(([name, value]) => [name, value]));
  }

  /** The route declarations this listener acts on: a route with one needs it registered. */
  getOwnedDeclarations(): OwnedDeclarations {
    return { routeDefaults: ['_security_headers'] };
  }

  getSubscribedEvents(): SubscribedEvents<KernelEventMap> {
    return { 'kernel.response': [this.onKernelResponse, SecurityHeadersListener.RESPONSE_PRIORITY, { mainRequestOnly: true }] };
  }

  onKernelResponse(event: ResponseEvent): void {
    const request = event.request;
    const declared = request.attributes.get('_security_headers');
    if (declared === false) return;
    const entries = declared === undefined ? this.#entries : this.#entriesFor(declared);
    const headers = event.response.headers;
    const secure = request.isSecure;
    for (const [name, value, secureOnly] of entries) {
      if ((secure || !secureOnly) && !headers.has(name)) headers.set(name, value);
    }
  }

  #entriesFor(declared: SecurityHeaders): readonly Entry[] {
    let entries = this.#entriesByRoute.get(declared);
    if (entries === undefined) {
      assertSecurityHeaders(declared, 'The _security_headers route default');
      entries = entriesOf({ ...this.#headers, ...declared });
      this.#entriesByRoute.set(declared, entries);
    }
    return entries;
  }
}

function entriesOf(headers: SecurityHeaders): Entry[] {
  const entries: Entry[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value === 'string') entries.push([name, value, name === 'strict-transport-security']);
  }
  return entries;
}
