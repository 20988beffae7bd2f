import {
  ClientRateLimitListener,
  MemoryStore,
  RATE_LIMIT_POLICIES,
  RateLimiter,
  RouteRateLimitListener,
  DEFAULT_IPV6_PREFIX,
  type RateLimitPolicy,
  type RateLimitStore,
} from '@switchboard/rate-limit';
import { currentUser, LoginThrottle } from '@switchboard/security';
import { ConfigError } from '../config.js';
import { HEALTH_PATH } from './health.js';
import { METRICS_PATH } from './metrics.js';
import { READY_PATH } from './operations.js';
import { PROFILER_PATH } from './profiler.js';
import type { HostContext, Wiring } from './wiring.js';

/** One limit as the environment writes it: `[policy:]<limit>/<interval>`, e.g. `300/60s`, `token_bucket:20/1s`. */
export interface LimitSetting {
  readonly policy: RateLimitPolicy;
  readonly limit: number;
  /** Milliseconds. */
  readonly intervalMs: number;
}

export interface RateLimitSettings {
  /** Env `RATE_LIMIT`: the per-client limiter, per client address. Default off (see docs/security.md). */
  readonly client: LimitSetting | null;
  /** Env `LOGIN_THROTTLING`: attempts per (username, address); the address alone gets 5 times that. Default `5/60s`. */
  readonly login: LimitSetting | null;
  /** Where the counts live: `REDIS_URL`, else `PROFILER_REDIS_URL`; `null` (memory) for one process without either. */
  readonly redisUrl: string | null;
  /** Env `CLIENT_IPV6_PREFIX`: every limit counts an IPv6 client by its network of this many bits. Default 64. */
  readonly ipv6Prefix: number;
}

export const DEFAULT_LOGIN_THROTTLING = '5/60s';
const UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** Reads `RATE_LIMIT`, `LOGIN_THROTTLING`, `CLIENT_IPV6_PREFIX`, `REDIS_URL` / `PROFILER_REDIS_URL`; a malformed value is a `ConfigError`. */
export function rateLimitSettingsFromEnv(env: NodeJS.ProcessEnv): RateLimitSettings {
  const redisUrl = nonEmpty(env['REDIS_URL']) ?? nonEmpty(env['PROFILER_REDIS_URL']) ?? null;
  return {
    client: parseLimit('RATE_LIMIT', nonEmpty(env['RATE_LIMIT']) ?? 'off'),
    login: parseLimit('LOGIN_THROTTLING', nonEmpty(env['LOGIN_THROTTLING']) ?? DEFAULT_LOGIN_THROTTLING),
    redisUrl,
    ipv6Prefix: parseIpv6Prefix(nonEmpty(env['CLIENT_IPV6_PREFIX']) ?? String(DEFAULT_IPV6_PREFIX)),
  };
}

function parseIpv6Prefix(text: string): number {
  const bits = /^\d{1,3}$/.test(text) ? Number(text) : 0;
  if (bits < 1 || bits > 128) throw new ConfigError(`CLIENT_IPV6_PREFIX must be a prefix length from 1 to 128 such as 64, got "${text}".`);
  return bits;
}

export function parseLimit(name: string, text: string): LimitSetting | null {
  if (text === 'off' || text === '0') return null;
  const match = /^(?:([a-z_]+):)?(\d+)\/(\d+)(ms|s|m|h)$/.exec(text);
  const policy = (match?.[1] ?? 'sliding_window') as RateLimitPolicy;
  if (match === null || !RATE_LIMIT_POLICIES.includes(policy) || Number(match[2]) < 1 || Number(match[3]) < 1) {
    throw new ConfigError(
      `${name} must be "off" or [policy:]<limit>/<interval> such as 300/60s or token_bucket:20/1s (policies: ${RATE_LIMIT_POLICIES.join(', ')}; units ms, s, m, h), got "${text}".`,
    );
  }
  return { policy, limit: Number(match[2]), intervalMs: Number(match[3]) * UNITS[match[4]!]! };
}

export interface WiredRateLimit extends Wiring {
  /** Login throttling for `POST /api/token`, or `null` with `LOGIN_THROTTLING=off`. */
  loginThrottle: LoginThrottle | null;
}

/**
 * Rate limiting in the example host:
 * - login throttling (on by default): `LoginThrottle`, used by the token controller;
 * - the per-client limiter (`RATE_LIMIT`, off by default): every request but CORS preflights, the
 *   probes (`/health`, `/ready`: an orchestrator's checks must not be refused, nor wait for Redis), `/metrics` and
 *   the profiler's pages, keyed by the client address (`TRUSTED_PROXIES` says whose X-Forwarded-For to believe);
 * - the `_rate_limit` route default (item writes declare one), counted by the authenticated user.
 * Each counts an IPv6 client by its network of `CLIENT_IPV6_PREFIX` bits (default 64).
 * Counts are kept in Redis when a URL is set (every worker of a cluster shares them; the cluster
 * refuses to start without one, see `workersFromEnv`), in this process's memory otherwise.
 */
export async function wireRateLimit(host: HostContext): Promise<WiredRateLimit> {
  const settings = rateLimitSettingsFromEnv(host.env);
  const { store, close } = await storeOf(host, settings.redisUrl);
  const { ipv6Prefix } = settings;
  const clientLimit =
    settings.client === null
      ? []
      : [
          new ClientRateLimitListener({
            limiter: new RateLimiter({ id: 'client', ...settings.client, store }),
            exemptPaths: [HEALTH_PATH, READY_PATH, METRICS_PATH, ...(host.debug ? [PROFILER_PATH] : [])],
            ipv6Prefix,
          }),
        ];
  return {
    subscribers: [
      ...clientLimit,
      new RouteRateLimitListener({ store, ipv6Prefix, userOf: (request) => currentUser(request)?.identifier ?? null }),
    ],
    loginThrottle: settings.login === null ? null : new LoginThrottle({ store, ipv6Prefix, ...settings.login }),
    ...(close === undefined ? {} : { onShutdown: close }),
  };
}

/** Where counts are kept, and how to close its connection; the Redis client is loaded only when one is set. */
async function storeOf(host: HostContext, redisUrl: string | null): Promise<{ store: RateLimitStore; close?: () => Promise<void> }> {
  if (redisUrl === null) return { store: new MemoryStore() };
  const { RedisStore } = await import('@switchboard/rate-limit/redis');
  try {
    const store = new RedisStore({ url: redisUrl, logger: host.logger });
    return { store, close: () => store.close() };
  } catch {
    // The URL itself stays out of the message: it may hold a password.
    throw new ConfigError('REDIS_URL (or PROFILER_REDIS_URL) must be a URL such as redis://127.0.0.1:6379.');
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}
