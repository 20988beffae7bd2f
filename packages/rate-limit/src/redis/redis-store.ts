import { createHash } from 'node:crypto';
import { createClient } from '@redis/client';
import type { Logger } from '@switchboard/http-kernel';
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
const SCRIPT_SHA = createHash('sha1').update(CONSUME_SCRIPT).digest('hex');
/** Most commands waiting in the client (to be sent, or for their answer); past it, more fail at once. */
const CLIENT_QUEUE_LIMIT = 1_000;

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
  readonly #client;
  readonly #prefix: string;
  readonly #logger: Logger | null;
  /** `host:port/database`: the URL without its credentials, for messages. */
  readonly #location: string;
  readonly #timeoutMs: number;
  #outageSince: number | null = null;
  #closed = false;

  constructor(options: RedisStoreOptions = {}) {
    const url = new URL(options.url ?? 'redis://127.0.0.1:6379');
    this.#location = `${url.hostname}:${url.port || '6379'}${url.pathname.length > 1 ? url.pathname : ''}`;
    this.#prefix = options.keyPrefix ?? 'switchboard:rate-limit:';
    this.#logger = options.logger?.child({ channel: 'rate_limit' }) ?? null;
    const timeout = options.commandTimeoutMs ?? 250;
    if (!(timeout > 0)) throw new RangeError(`commandTimeoutMs must be positive, got ${String(options.commandTimeoutMs)}.`);
    this.#timeoutMs = timeout;
    this.#client = createClient({
      url: url.href,
      disableOfflineQueue: true,
      commandsQueueMaxLength: CLIENT_QUEUE_LIMIT,
      commandOptions: { timeout },
      socket: { connectTimeout: Math.max(timeout, 2_000), reconnectStrategy: (retries) => Math.min(50 * 2 ** retries, 2_000) },
    });
    // Without a listener, a connection error would be thrown as an uncaught exception.
    this.#client.on('error', (error: unknown) => this.#failed(error));
    this.#client.on('ready', () => this.#succeeded());
    this.#client.connect().catch((error: unknown) => this.#failed(error));
  }

  /** Whether the connection is up and the last command succeeded. */
  get available(): boolean {
    return !this.#closed && this.#outageSince === null && this.#client.isReady;
  }

  /** Resolves `true` once connected (at once when already), `false` after `timeoutMs`: for startup, before serving. */
  async waitUntilAvailable(timeoutMs: number): Promise<boolean> {
    if (this.#client.isReady) return true;
    let timer: NodeJS.Timeout | undefined;
    let onReady: (() => void) | undefined;
    const ready = await Promise.race([
      new Promise<true>((resolve) => this.#client.once('ready', (onReady = () => resolve(true)))),
      new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
    ]);
    clearTimeout(timer);
    this.#client.off('ready', onReady!);
    return ready;
  }

  async consume(checks: readonly StoreCheck[], now: number): Promise<readonly StoreOutcome[]> {
    const keys = checks.map((check) => this.#prefix + check.key);
    const args = [String(now)];
    for (const check of checks) args.push(POLICY_CODES[check.policy], String(check.limit), String(check.interval), String(check.cost));
    const reply = await this.#run(() => this.#evaluate(keys, args));
    const numbers = reply as number[];
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
    await this.#run(() => this.#client.del(keys.map((key) => this.#prefix + key)));
  }

  /**
   * Closes the connection (at shutdown); checks then fail, and the limiter fails open or closed.
   * Waits at most `commandTimeoutMs` for the answers still due, then drops the connection.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (!this.#client.isOpen) return;
    await this.#answerWithin(this.#client.close()).catch(() => this.#client.destroy());
  }

  /** The script by its SHA; sent whole once when this Redis does not know it yet (first use, or after a restart). */
  async #evaluate(keys: string[], args: string[]): Promise<unknown> {
    try {
      return await this.#client.evalSha(SCRIPT_SHA, { keys, arguments: args });
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return await this.#client.eval(CONSUME_SCRIPT, { keys, arguments: args });
    }
  }

  async #run<T>(command: () => Promise<T>): Promise<T> {
    try {
      const result = await this.#answerWithin(command());
      if (this.#outageSince !== null) this.#succeeded();
      return result;
    } catch (error) {
      this.#failed(error);
      throw error;
    }
  }

  /**
   * The client's own timeout covers only a command waiting to be sent; this one also covers a
   * command sent to a Redis that does not answer. Its late answer, if any, is ignored.
   */
  #answerWithin<T>(promise: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${this.#timeoutMs} ms`)), this.#timeoutMs);
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
  }

  #failed(error: unknown): void {
    if (this.#outageSince !== null || this.#closed) return;
    this.#outageSince = Date.now();
    const reason = error instanceof Error ? error.message : String(error);
    this.#logger?.error(
      { redis: this.#location, reason },
      `Rate limit store: Redis at ${this.#location} is unavailable (${reason}); limiters fail open or closed as configured. Said once per outage.`,
    );
  }

  #succeeded(): void {
    if (this.#outageSince === null || !this.#client.isReady) return;
    const seconds = Math.round((Date.now() - this.#outageSince) / 1000);
    this.#outageSince = null;
    this.#logger?.info({ redis: this.#location }, `Rate limit store: Redis at ${this.#location} is available again after ${seconds} s.`);
  }
}
