import {
  addVary,
  type EventSubscriber,
  type KernelEventMap,
  type Request,
  type RequestEvent,
  type ResponseEvent,
  type SubscribedEvents,
} from '@switchboard/http-kernel';
import { CorsPolicyMap, type CorsConfig, type CorsPolicy } from './cors-policy.js';
import { answerPreflight, isPreflight } from './preflight.js';

/** Preflights and CORS headers concern what the client asked; an error sub-request asks nothing. */
const MAIN_REQUEST_ONLY = { mainRequestOnly: true } as const;

/** What the request step decided, read back by the response step. */
interface CorsDecision {
  readonly origin: string;
  readonly allowed: boolean;
  readonly policy: CorsPolicy;
}

/**
 * Cross-origin resource sharing for main requests.
 * - `kernel.request` (`REQUEST_PRIORITY`): answers preflights itself (before routing, so unknown paths too) and
 *   remembers whether an actual request's origin is allowed.
 * - `kernel.response` (`RESPONSE_PRIORITY`): adds `Access-Control-Allow-Origin` (the exact origin), `-Credentials` and
 *   `-Expose-Headers` for allowed origins, and `Vary: Origin` whenever an Origin was judged.
 * - `kernel.response` (`CACHEABLE_VARY_PRIORITY`): `Vary: Origin` on publicly cacheable responses of CORS-enabled paths even
 *   without an Origin, so a shared cache never serves one origin's answer to another.
 * A refused origin gets no CORS header and no error: the browser does the blocking.
 */
export class CorsListener implements EventSubscriber<KernelEventMap> {
  /** Before `IdleConnectionListener.REQUEST_PRIORITY` and `RouterListener.REQUEST_PRIORITY`: a preflight needs neither. */
  static readonly REQUEST_PRIORITY = 250;
  static readonly RESPONSE_PRIORITY = 0;
  /** After `CacheAttributeListener.RESPONSE_PRIORITY` made a response public. */
  static readonly CACHEABLE_VARY_PRIORITY = -20;

  readonly #policies: CorsPolicyMap;
  /** Per request, keyed by the request object itself: no state outlives it. */
  readonly #decisions = new WeakMap<Request, CorsDecision>();

  constructor(config: CorsConfig = {}) {
    this.#policies = new CorsPolicyMap(config);
  }

  getSubscribedEvents(): SubscribedEvents<KernelEventMap> {
    return {
      'kernel.request': [this.onKernelRequest, CorsListener.REQUEST_PRIORITY, MAIN_REQUEST_ONLY],
      'kernel.response': [
        [this.onKernelResponse, CorsListener.RESPONSE_PRIORITY, MAIN_REQUEST_ONLY],
        [this.varyCacheableResponse, CorsListener.CACHEABLE_VARY_PRIORITY, MAIN_REQUEST_ONLY],
      ],
    };
  }

  onKernelRequest(event: RequestEvent): void {
    const request = event.request;
    const origins = request.headers.getAll('origin');
    if (origins.length === 0) return;
    const policy = this.#policies.policyFor(request.rawPath);
    // The raw header, never a parsed URL; several Origin headers are refused outright.
    const origin = origins.length === 1 ? origins[0]! : origins.join(', ');
    if (policy.skipSameOrigin && origin.toLowerCase() === request.schemeAndHttpHost) return;
    const allowed = origins.length === 1 && policy.enabled && policy.isOriginAllowed(origin);
    this.#decisions.set(request, { origin, allowed, policy });
    if (isPreflight(request)) event.setResponse(answerPreflight(request, origin, allowed, policy));
  }

  onKernelResponse(event: ResponseEvent): void {
    const decision = this.#decisions.get(event.request);
    if (decision === undefined) return;
    const headers = event.response.headers;
    addVary(headers, 'Origin');
    if (!decision.allowed || isPreflight(event.request)) return;
    headers.set('access-control-allow-origin', decision.origin);
    if (decision.policy.allowCredentials) headers.set('access-control-allow-credentials', 'true');
    if (decision.policy.exposeHeadersValue !== '') headers.set('access-control-expose-headers', decision.policy.exposeHeadersValue);
  }

  varyCacheableResponse(event: ResponseEvent): void {
    if (this.#decisions.has(event.request)) return;
    if (!this.#policies.policyFor(event.request.rawPath).enabled) return;
    if (isSharedCacheable(event.response.headers.getAll('cache-control'))) addVary(event.response.headers, 'Origin');
  }
}

/** `public` or `s-maxage` present, and neither `private` nor `no-store`. */
function isSharedCacheable(cacheControl: readonly string[]): boolean {
  const directives = new Set(cacheControl.flatMap((value) => value.split(',')).map((part) => part.split('=')[0]!.trim().toLowerCase()));
  if (directives.has('private') || directives.has('no-store')) return false;
  return directives.has('public') || directives.has('s-maxage');
}
