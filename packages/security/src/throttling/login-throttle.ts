import { channel } from 'node:diagnostics_channel';
import { createHash } from 'node:crypto';
import { JsonResponse, type Request } from '@switchboard/http-kernel';
import {
  assertIpv6Prefix,
  clientAddressKey,
  CompoundRateLimiter,
  DEFAULT_IPV6_PREFIX,
  rateLimitHeaders,
  RateLimiter,
  RateLimitStoreUnavailableError,
  recordDecision,
  secondsOf,
  type RateLimitDecision,
  type RateLimitPolicy,
  type RateLimitStore,
} from '@switchboard/rate-limit';

export interface LoginThrottleOptions {
  /** Where attempts are counted: a `MemoryStore` for one process, a `RedisStore` shared by a cluster's workers. */
  store: RateLimitStore;
  /** Attempts per (username, client address) and interval. Default 5. */
  limit?: number;
  /** The interval, in milliseconds. Default 60,000. */
  intervalMs?: number;
  /** The per-address limit is this many times `limit` (one address trying many usernames). Default 5. */
  perAddressFactor?: number;
  /**
   * The per-username limit, across all addresses, is this many times `limit` (many addresses trying
   * one username). Default 10: a lockout of an account takes that many networks at once.
   */
  perUsernameFactor?: number;
  /** An IPv6 client is counted by its network of this many bits (1–128). Default 64, one ordinary network. */
  ipv6Prefix?: number;
  /** Default `sliding_window` (no double burst across a window's edge). */
  policy?: RateLimitPolicy;
  clock?: () => number;
  /**
   * While the store cannot answer: `false` (the default) refuses logins with a 503 and
   * `Retry-After: 1` — guesses are not let through unlimited while Redis is down; `true` lets them
   * through (the hashing queue still bounds their rate). The store logs the outage once.
   */
  failOpen?: boolean;
}

/**
 * Login throttling: a login attempt takes a token from three limits at once — per (normalised
 * username, client address), per client address at `perAddressFactor` times the limit, and per
 * username across all addresses at `perUsernameFactor` times the limit — before its password is
 * checked. All are taken in one atomic step of the store, so parallel attempts on several workers
 * cannot overrun a limit. While throttled, every attempt is refused, a correct password too. A
 * successful login gives the (username, address) limit back.
 *
 * The client address is keyed by `clientAddressKey`: an IPv6 client by its /64 (`ipv6Prefix`), an
 * IPv4-mapped address as the IPv4 one, so that one machine cannot take fresh counts by rotating
 * through its own addresses.
 *
 * The username is counted whether or not it exists, and the answer is the same: throttling reveals
 * nothing about which usernames exist. Usernames are hashed before they become keys, so they never
 * appear in the store (Redis) or the profiler.
 */
/** Published once per login attempt the throttle refuses (`LoginThrottledMessage`), for metrics. */
export const LOGIN_THROTTLED_CHANNEL = 'switchboard.security.login-throttled';

/** What `LOGIN_THROTTLED_CHANNEL` carries. */
export interface LoginThrottledMessage {
  /** The limit that refused: `login` (username and address), `login-address` or `login-username`. */
  readonly limit: string;
}

const throttled = channel(LOGIN_THROTTLED_CHANNEL);

export class LoginThrottle {
  readonly #perUser: RateLimiter;
  readonly #limiter: CompoundRateLimiter;
  readonly #ipv6Prefix: number;

  constructor(options: LoginThrottleOptions) {
    const { store, policy = 'sliding_window', intervalMs = 60_000, limit = 5, perAddressFactor = 5, perUsernameFactor = 10 } = options;
    const { clock, failOpen = false, ipv6Prefix = DEFAULT_IPV6_PREFIX } = options;
    assertIpv6Prefix(ipv6Prefix);
    this.#ipv6Prefix = ipv6Prefix;
    const common = { store, policy, intervalMs, failOpen, ...(clock === undefined ? {} : { clock }) };
    this.#perUser = new RateLimiter({ ...common, id: 'login', limit });
    const perAddress = new RateLimiter({ ...common, id: 'login-address', limit: limit * perAddressFactor });
    const perUsername = new RateLimiter({ ...common, id: 'login-username', limit: limit * perUsernameFactor });
    this.#limiter = new CompoundRateLimiter([this.#perUser, perAddress, perUsername]);
  }

  /**
   * Takes this attempt's tokens: `null` when it may go on to the password check, or the answer to
   * send: 429 with `Retry-After` and the RateLimit fields, or — the store unavailable and the
   * throttle failing closed — 503 with `Retry-After: 1`. Answered here rather than thrown: a flood
   * of refused logins writes no error line per attempt (the store logs its outage once).
   */
  async check(request: Request, username: string): Promise<JsonResponse | null> {
    let decision: RateLimitDecision;
    try {
      decision = await this.#limiter.consume(this.#keysOf(request, username));
    } catch (error) {
      if (!(error instanceof RateLimitStoreUnavailableError)) throw error;
      return new JsonResponse({ code: 503, message: 'Logins are unavailable for a moment: try again.' }, 503, { 'retry-after': '1' });
    }
    recordDecision(request, 'login', decision);
    if (decision.allowed) return null;
    if (throttled.hasSubscribers) {
      const limit = decision.results.find((result) => !result.allowed)?.id ?? 'login';
      throttled.publish({ limit } satisfies LoginThrottledMessage);
    }
    return throttledResponse(decision);
  }

  /**
   * Whether the next attempt would be refused now, taking nothing: lets a caller refuse an
   * exhausted client (with `check`, which takes nothing from a refused attempt either) before it
   * reserves anything else for the attempt. `false` while the store cannot answer (`check` says so).
   */
  async exhausted(request: Request, username: string): Promise<boolean> {
    try {
      const decision = await this.#limiter.peek(this.#keysOf(request, username));
      return decision.results.some((result) => result.remaining < 1);
    } catch (error) {
      if (error instanceof RateLimitStoreUnavailableError) return false;
      throw error;
    }
  }

  /** After a successful login: the (username, address) attempts are given back. */
  async succeeded(request: Request, username: string): Promise<void> {
    await this.#perUser.reset(this.#keysOf(request, username)[0]);
  }

  /** The keys of the three limits: (username, address), address, username. */
  #keysOf(request: Request, username: string): [string, string, string] {
    const address = clientAddressKey(request.clientIp, this.#ipv6Prefix);
    const hashed = hashedUsername(username);
    return [`${hashed}|${address}`, address, hashed];
  }
}

/** Case, width and surrounding spaces do not make another username (`Demo`, `ｄｅｍｏ`, ` demo`). */
export function normaliseUsername(username: string): string {
  return username.normalize('NFKC').trim().toLowerCase();
}

function hashedUsername(username: string): string {
  return createHash('sha256').update(normaliseUsername(username)).digest('base64url').slice(0, 22);
}

function throttledResponse(decision: RateLimitDecision): JsonResponse {
  const seconds = secondsOf(decision.retryAfter);
  return new JsonResponse({ code: 429, message: `Too many login attempts. Try again in ${seconds} s.` }, 429, {
    ...rateLimitHeaders(decision),
    'cache-control': 'no-store',
  });
}
