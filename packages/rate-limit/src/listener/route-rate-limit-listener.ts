import {
  RequestType,
  type ControllerArgumentsEvent,
  type EventSubscriber,
  type KernelEventMap,
  type Request,
  type ResponseEvent,
  type SubscribedEvents,
  type OwnedDeclarations,
} from '@switchboard/http-kernel';
import { andThen } from '@switchboard/http-kernel/internal';
import { setRateLimitHeaders } from '../http/rate-limit-headers.js';
import { assertIpv6Prefix, clientAddressKey, DEFAULT_IPV6_PREFIX } from '../key/client-address-key.js';
import type { RateLimitDecision } from '../limiter/rate-limit-decision.js';
import { CompoundRateLimiter, RateLimiter } from '../limiter/rate-limiter.js';
import type { RateLimitStore } from '../store/rate-limit-store.js';
import { decisionOf, recordDecision } from './decision-record.js';
import { refusalOf } from './refusal.js';
import { assertRouteRateLimit, type RouteRateLimit, type RouteRateLimitDeclaration } from './route-rate-limit.js';

export interface RouteRateLimitListenerOptions {
  /** Where every route's counts live (one Redis store for a cluster). */
  store: RateLimitStore;
  /** The authenticated user's identifier, or `null` for an anonymous request: what `by: 'user'` counts by. */
  userOf?: (request: Request) => string | null;
  clock?: () => number;
  /** See `RateLimiterOptions.failOpen`. Default true. */
  failOpen?: boolean;
  /** Requests counted by client address (`clientAddressKey`): an IPv6 client by its network of this many bits (1–128). Default 64. */
  ipv6Prefix?: number;
}

interface RouteLimiter {
  readonly limiter: CompoundRateLimiter;
  readonly byUser: readonly boolean[];
}

/**
 * Applies a route's `_rate_limit` default:
 * - `kernel.controller_arguments` (`CONTROLLER_ARGUMENTS_PRIORITY`): main requests; after
 *   authorization (so `by: 'user'` knows the user, and a request refused anyway takes no hit),
 *   before the HTTP cache step and the payload step (a refused request's body is never read).
 *   A refusal throws a 429 with `Retry-After` and the rate limit fields;
 * - `kernel.response` (`RESPONSE_PRIORITY`): the rate limit fields on the allowed request's response.
 */
export class RouteRateLimitListener implements EventSubscriber<KernelEventMap> {
  /** After `IsGrantedListener.CONTROLLER_ARGUMENTS_PRIORITY` (20), before `CacheAttributeListener.CONTROLLER_ARGUMENTS_PRIORITY` (10). */
  static readonly CONTROLLER_ARGUMENTS_PRIORITY = 15;
  static readonly RESPONSE_PRIORITY = 0;

  readonly #options: RouteRateLimitListenerOptions;
  /** A route's declaration is shared by all its requests: its limiter is built on first use. */
  readonly #limiters = new WeakMap<object, RouteLimiter>();

  constructor(options: RouteRateLimitListenerOptions) {
    this.#options = options;
    assertIpv6Prefix(options.ipv6Prefix ?? DEFAULT_IPV6_PREFIX);
  }

  /** The route declarations this listener acts on: a route with one needs it registered. */
  getOwnedDeclarations(): OwnedDeclarations {
    return { routeDefaults: ['_rate_limit'] };
  }

  getSubscribedEvents(): SubscribedEvents<KernelEventMap> {
    return {
      'kernel.controller_arguments': [this.onControllerArguments, RouteRateLimitListener.CONTROLLER_ARGUMENTS_PRIORITY],
      'kernel.response': [this.onKernelResponse, RouteRateLimitListener.RESPONSE_PRIORITY],
    };
  }

  onControllerArguments(event: ControllerArgumentsEvent): void | Promise<void> {
    const request = event.request;
    const declaration = request.attributes.get('_rate_limit');
    if (declaration === undefined || event.requestType !== RequestType.MAIN) return;
    const { limiter, byUser } = this.#limiterOf(declaration, request.attributes.get('_route') ?? 'route');
    const user = byUser.includes(true) ? (this.#options.userOf?.(request) ?? null) : null;
    const address = clientAddressKey(request.clientIp, this.#options.ipv6Prefix);
    const keys = byUser.map((counted) => (counted && user !== null ? `user:${user}` : address));
    const decision = limiter.consume(keys);
    return andThen(decision, (answered) => this.#apply(request, answered));
  }

  onKernelResponse(event: ResponseEvent): void {
    if (event.requestType !== RequestType.MAIN) return;
    const decision = decisionOf(event.request, 'route');
    if (decision?.allowed) setRateLimitHeaders(event.response.headers, decision);
  }

  #apply(request: Request, decision: RateLimitDecision): void {
    recordDecision(request, 'route', decision);
    if (!decision.allowed) throw refusalOf(decision, 'RouteRateLimitListener.onControllerArguments');
  }

  #limiterOf(declaration: RouteRateLimitDeclaration, route: string): RouteLimiter {
    let built = this.#limiters.get(declaration);
    if (built === undefined) {
      assertRouteRateLimit(declaration);
      const limits: readonly RouteRateLimit[] = Array.isArray(declaration) ? declaration : [declaration as RouteRateLimit];
      const { store, clock, failOpen } = this.#options;
      const limiters = limits.map(
        (limit, index) =>
          new RateLimiter({
            id: limit.id ?? (limits.length === 1 ? idOf(route) : `${idOf(route)}-${index + 1}`),
            policy: limit.policy,
            limit: limit.limit,
            intervalMs: limit.intervalMs,
            store,
            ...(clock === undefined ? {} : { clock }),
            ...(failOpen === undefined ? {} : { failOpen }),
          }),
      );
      built = { limiter: new CompoundRateLimiter(limiters), byUser: limits.map((limit) => limit.by === 'user') };
      this.#limiters.set(declaration, built);
    }
    return built;
  }
}

/** A route name as a limit id (ids allow letters, digits, `_`, `-`, `.`). */
function idOf(route: string): string {
  return route.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 60);
}
