import type { Logger } from '@switchboard/http-kernel';
import { RedisConnection, RedisScript } from '@switchboard/redis-connection';
import type { RateLimitStore, StoreCheck, StoreOutcome } from '../store/rate-limit-store.js';
import { CONSUME_SCRIPT } from './consume-script.js';

export interface RedisStoreOptions {
  /** `redis://[[user]:password@]host[:port][/database]` (`rediss://` for TLS). Default `redis://127.0.0.1:6379`. */
  url?: string;
  /** Prefix of every key; apps sharing one Redis each use their own. Default `switchboard:rate-limit:`. */
  keyPrefix?: string;
  /**
   * A check not answered within this time fails, whether it waits to be sent or was sent to a Redis
   * that does not answer (paused, overloaded): the limiter then fails open or closed as it was told.
   * Default 250 ms — a limiter sits in front of every request it limits.
   */
  commandTimeoutMs?: number;
  /** Told once when Redis becomes unavailable and once when it is back. */
  logger?: Logger;
}

const POLICY_CODES = { fixed_window: 'f', sliding_window: 's', token_bucket: 't' } as const;
const SCRIPT = new RedisScript(CONSUME_SCRIPT);

/**
 * Counts in Redis, shared by every process of an app: N workers enforce one limit, not N. Each
 * check is one `EVALSHA` of one Lua script (all of a compound limiter's keys at once), so parallel
 * checks from any number of processes cannot let more through than the limit. Keys expire on their
 * own once their state no longer matters.
 *
 * Times come from the caller's clock (`RateLimiter.clock`): processes sharing a store must agree
 * on the time to within a small fraction of the shortest interval (NTP does).
 *
 * While Redis cannot answer, `consume` rejects at once (the client queues nothing while
 * disconnected, and at most 1,000 commands while connected) or after `commandTimeoutMs` — also when
 * a command was sent and Redis, still connected, does not answer; the limiter then fails open or
 * closed. The outage is logged once, at ERROR on the `rate_limit` channel, and its end once, at INFO.
 */
export class RedisStore implements RateLimitStore {
  readonly #connection: RedisConnection;
  readonly #prefix: string;

  constructor(options: RedisStoreOptions = {}) {
    this.#prefix = options.keyPrefix ?? 'switchboard:rate-limit:';
    this.#connection = new RedisConnection({
      ...(options.url === undefined ? {} : { url: options.url }),
      commandTimeoutMs: options.commandTimeoutMs ?? 250,
      subject: 'Rate limit store',
      logger: options.logger?.child({ channel: 'rate_limit' }) ?? null,
      duringOutage: () => 'Limiters fail open or closed as configured.',
    });
  }

  /** Whether the connection is up and the last command succeeded. */
  get available(): boolean {
    return this.#connection.available;
  }

  /** Resolves `true` once available (at once when already), `false` after `timeoutMs`: for startup, before serving. */
  waitUntilAvailable(timeoutMs: number): Promise<boolean> {
    return this.#connection.waitUntilAvailable(timeoutMs);
  }

  async consume(checks: readonly StoreCheck[], now: number): Promise<readonly StoreOutcome[]> {
    const keys = checks.map((check) => this.#prefix + check.key);
    const args = [String(now)];
    for (const check of checks) args.push(POLICY_CODES[check.policy], String(check.limit), String(check.intervalMs), String(check.cost));
    const numbers = (await this.#connection.evaluate(SCRIPT, keys, args)) as number[];
    const outcomes: StoreOutcome[] = [];
    for (let index = 0; index < checks.length; index++) {
      const at = index * 4;
      outcomes.push({
        allowed: numbers[at] === 1,
        remaining: numbers[at + 1]!,
        resetAfter: numbers[at + 2]!,
        retryAfter: numbers[at + 3]!,
      });
    }
    return outcomes;
  }

  async reset(keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.#connection.run((client) => client.del(keys.map((key) => this.#prefix + key)));
  }

  /**
   * Closes the connection (at shutdown); checks then fail, and the limiter fails open or closed.
   * Waits at most `commandTimeoutMs` for the answers still due, then drops the connection.
   */
  close(): Promise<void> {
    return this.#connection.close();
  }
}
