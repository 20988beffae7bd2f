import {
  RequestType,
  type EventSubscriber,
  type KernelEventMap,
  type Request,
  type RequestEvent,
  type ResponseEvent,
  type SubscribedEvents,
} from '@switchboard/http-kernel';
import { andThen } from '@switchboard/http-kernel/internal';
import { setRateLimitHeaders } from '../http/rate-limit-headers.js';
import { assertIpv6Prefix, clientAddressKey, DEFAULT_IPV6_PREFIX } from '../key/client-address-key.js';
import type { RateLimitDecision } from '../limiter/rate-limit-decision.js';
import type { CompoundRateLimiter, RateLimiter } from '../limiter/rate-limiter.js';
import { decisionOf, recordDecision } from './decision-record.js';
import { refusalOf } from './refusal.js';

const SLASH = 0x2f;

export interface ClientRateLimitListenerOptions {
  /** Applied to every main request, keyed by its client address (`clientAddressKey`). */
  limiter: RateLimiter | CompoundRateLimiter;
  /** An IPv6 client is counted by its network of this many bits (1–128). Default 64. */
  ipv6Prefix?: number;
  /** Paths left unlimited, with everything under them. Default `['/_profiler']` (the profiler's pages); `[]` limits them too. */
  exemptPaths?: readonly string[];
  /** CORS preflights (`OPTIONS` with `Access-Control-Request-Method`) are left unlimited unless this is `false`. Default true. */
  exemptPreflights?: boolean;
  /** `RateLimit` / `RateLimit-Policy` on allowed responses too (refusals always carry them). Default true. */
  headersOnAllowed?: boolean;
}

/**
 * The per-client limiter:
 * - `kernel.request` (`REQUEST_PRIORITY`): main requests only; takes one hit for the request's
 *   client address (`request.clientIp`: the node adapter resolves it through `trustedProxies`,
 *   so an untrusted peer's `X-Forwarded-For` is ignored), an IPv6 one by its /64 (`ipv6Prefix`).
 *   A refusal throws a 429 (`TooManyRequestsHttpError`) with `Retry-After` and the rate limit
 *   fields: routing, the firewall and the controller never run;
 * - `kernel.response` (`RESPONSE_PRIORITY`): the rate limit fields on an allowed main request's response.
 */
export class ClientRateLimitListener implements EventSubscriber<KernelEventMap> {
  /** Before `CorsListener.REQUEST_PRIORITY` (250), the database and routing: a refusal costs almost nothing. */
  static readonly REQUEST_PRIORITY = 300;
  /** With the other header-adding listeners, before the profiler's and the stateless check. */
  static readonly RESPONSE_PRIORITY = 0;

  readonly #limiter: RateLimiter | CompoundRateLimiter;
  readonly #exemptPaths: readonly string[];
  readonly #exemptPreflights: boolean;
  readonly #headersOnAllowed: boolean;
  readonly #ipv6Prefix: number;

  constructor(options: ClientRateLimitListenerOptions) {
    this.#limiter = options.limiter;
    this.#ipv6Prefix = options.ipv6Prefix ?? DEFAULT_IPV6_PREFIX;
    assertIpv6Prefix(this.#ipv6Prefix);
    this.#exemptPaths = options.exemptPaths ?? ['/_profiler'];
    this.#exemptPreflights = options.exemptPreflights ?? true;
    this.#headersOnAllowed = options.headersOnAllowed ?? true;
  }

  getSubscribedEvents(): SubscribedEvents<KernelEventMap> {
    const events: SubscribedEvents<KernelEventMap> = {
      'kernel.request': [this.onKernelRequest, ClientRateLimitListener.REQUEST_PRIORITY],
    };
    if (this.#headersOnAllowed) events['kernel.response'] = [this.onKernelResponse, ClientRateLimitListener.RESPONSE_PRIORITY];
    return events;
  }

  onKernelRequest(event: RequestEvent): void | Promise<void> {
    if (event.requestType !== RequestType.MAIN || this.#isExempt(event.request)) return;
    const request = event.request;
    const decision = this.#limiter.consume(clientAddressKey(request.clientIp, this.#ipv6Prefix));
    return andThen(decision, (answered) => this.#apply(request, answered));
  }

  onKernelResponse(event: ResponseEvent): void {
    if (event.requestType !== RequestType.MAIN) return;
    const decision = decisionOf(event.request, 'client');
    if (decision?.allowed) setRateLimitHeaders(event.response.headers, decision);
  }

  #apply(request: Request, decision: RateLimitDecision): void {
    recordDecision(request, 'client', decision);
    if (!decision.allowed) throw refusalOf(decision, 'ClientRateLimitListener.onKernelRequest');
  }

  #isExempt(request: Request): boolean {
    if (this.#exemptPreflights && request.method === 'OPTIONS' && request.headers.has('access-control-request-method')) return true;
    const path = request.rawPath;
    for (const prefix of this.#exemptPaths) {
      if (path.startsWith(prefix) && (path.length === prefix.length || path.charCodeAt(prefix.length) === SLASH)) return true;
    }
    return false;
  }
}
