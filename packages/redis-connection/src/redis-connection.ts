import { createClient, type RedisClientType } from '@redis/client';
import type { Logger } from '@switchboard/http-kernel';
import { RedisCommandTimeoutError } from './redis-command-timeout-error.js';
import { redisLocation } from './redis-location.js';
import type { RedisScript } from './redis-script.js';

/** The client a command is given: `@redis/client`'s, with its defaults. */
export type RedisClient = RedisClientType;

export interface RedisConnectionOptions {
  /** `redis://[[user]:password@]host[:port][/database]` (`rediss://` for TLS). Default `redis://127.0.0.1:6379`. */
  url?: string;
  /**
   * The deadline of every command, whatever the connection's state: waiting to be sent, or sent to a
   * Redis that does not answer (paused, overloaded). Past it the command fails with a
   * `RedisCommandTimeoutError` and counts as an outage. No default: it depends on what waits.
   */
  commandTimeoutMs: number;
  /** Who speaks in the log lines, e.g. `Rate limit store`. */
  subject: string;
  /** Told once when Redis becomes unavailable and once when it is back. */
  logger?: Logger | null;
  /** What happens during an outage, in a sentence, added to its log line (asked when it starts). */
  duringOutage?: () => string;
  /** Words and fields added to the line that ends an outage (what the outage cost, say). */
  afterOutage?: () => { readonly note: string; readonly fields: Readonly<Record<string, unknown>> };
  /** Called when the client is connected (at start and after each reconnection). */
  onReady?: () => void;
  /** Called once when an outage starts. */
  onUnavailable?: () => void;
  /**
   * Most commands waiting in the client (to be sent, or for their answer); past it, more fail at once.
   * Default 1,000. Keep it above the few commands the client sends on connecting.
   */
  maxQueuedCommands?: number;
  /** The clock of the outage's start and length. Default `Date.now`. */
  now?: () => number;
}

export interface RedisOutage {
  /** When its first failure happened (milliseconds since the epoch). */
  readonly since: number;
  /** That failure's message. */
  readonly reason: string;
}

export interface RunOptions {
  /** Whether this command's success ends an outage. Default: always (a reader may say not while its writes wait). */
  endsOutage?: () => boolean;
}

/** The reconnection backoff: 50 ms doubling, at most one attempt every 2 s, forever. */
const MAX_RECONNECT_DELAY_MS = 2_000;

/**
 * One connection to one Redis server, as Switchboard's Redis stores use it:
 * - connects at once and reconnects forever, backing off to one attempt every 2 s;
 * - commands fail at once while disconnected (nothing piles up in the client), and at most
 *   `maxQueuedCommands` wait while connected;
 * - every command ends within `commandTimeoutMs`, also one sent to a Redis that stays connected and
 *   does not answer;
 * - an outage (a failed connection or command) is logged once at ERROR when it starts, and once at
 *   INFO when it ends (a reconnection, or a command that succeeds); the URL's credentials never
 *   appear in a message;
 * - scripts are sent by their SHA, whole only when Redis does not know them (`NOSCRIPT`: first use,
 *   or after a restart).
 *
 * For one Redis server reached by its URL, not Redis Cluster.
 */
export class RedisConnection {
  readonly #client: RedisClient;
  readonly #timeoutMs: number;
  readonly #subject: string;
  readonly #logger: Logger | null;
  readonly #options: RedisConnectionOptions;
  readonly #now: () => number;
  /** `host:port/database`: the URL without its credentials, for messages. */
  readonly location: string;
  #outage: RedisOutage | null = null;
  #closed = false;

  constructor(options: RedisConnectionOptions) {
    const url = new URL(options.url ?? 'redis://127.0.0.1:6379');
    const timeout = options.commandTimeoutMs;
    if (!(timeout > 0)) throw new RangeError(`commandTimeoutMs must be positive, got ${String(timeout)}.`);
    this.location = redisLocation(url);
    this.#timeoutMs = timeout;
    this.#subject = options.subject;
    this.#logger = options.logger ?? null;
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#client = createClient({
      url: url.href,
      disableOfflineQueue: true,
      commandsQueueMaxLength: options.maxQueuedCommands ?? 1_000,
      // Covers a command still waiting to be sent; `#answerWithin` covers one sent.
      commandOptions: { timeout },
      socket: {
        connectTimeout: Math.max(timeout, MAX_RECONNECT_DELAY_MS),
        reconnectStrategy: (retries) => Math.min(50 * 2 ** retries, MAX_RECONNECT_DELAY_MS),
      },
    });
    // Without a listener, a connection error would be thrown as an uncaught exception.
    this.#client.on('error', (error: unknown) => this.#failed(error));
    this.#client.on('ready', () => {
      this.#succeeded();
      this.#options.onReady?.();
    });
    this.#client.connect().catch((error: unknown) => this.#failed(error));
  }

  /** Connected, whether or not an outage is over. */
  get isReady(): boolean {
    return !this.#closed && this.#client.isReady;
  }

  /** Connected, not closed, and the last command succeeded. */
  get available(): boolean {
    return this.isReady && this.#outage === null;
  }

  /** The outage under way, or `null`. */
  get outage(): RedisOutage | null {
    return this.#outage;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Resolves `true` once available (at once when already), `false` after `timeoutMs`: for startup, before serving. */
  async waitUntilAvailable(timeoutMs: number): Promise<boolean> {
    if (this.available) return true;
    let timer: NodeJS.Timeout | undefined;
    let onReady: (() => void) | undefined;
    await Promise.race([
      new Promise<void>((resolve) => this.#client.once('ready', (onReady = resolve))),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs))),
    ]);
    clearTimeout(timer);
    this.#client.off('ready', onReady!);
    return this.available;
  }

  /**
   * Sends a command through the client, within the deadline: its answer, or its error. A failure
   * starts an outage (logged once); an answer ends one (unless `endsOutage` says not), also one that
   * comes after the deadline.
   */
  async run<T>(send: (client: RedisClient) => Promise<T>, options: RunOptions = {}): Promise<T> {
    const answered = () => {
      if (this.#outage !== null && (options.endsOutage?.() ?? true)) this.#succeeded();
    };
    try {
      const answer = await this.#answerWithin(send(this.#client));
      answered();
      return answer;
    } catch (error) {
      this.#failed(error);
      // Redis answering after all (a pause ended) ends the outage as an answer in time would.
      if (error instanceof RedisCommandTimeoutError) error.pending.then(answered, () => undefined);
      throw error;
    }
  }

  /** Runs `script` (`EVALSHA`, or `EVAL` once after `NOSCRIPT`) on `keys` with `args`, as `run` does. */
  evaluate(script: RedisScript, keys: string[], args: string[], options: RunOptions = {}): Promise<unknown> {
    return this.run(async (client) => {
      try {
        return await client.evalSha(script.sha, { keys, arguments: args });
      } catch (error) {
        if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
        return await client.eval(script.source, { keys, arguments: args });
      }
    }, options);
  }

  /** Closes the connection: waits at most the deadline for answers still due, then drops it. Commands then fail. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#client.isReady) {
      await this.#answerWithin(this.#client.close()).catch(() => this.#client.destroy());
    } else if (this.#client.isOpen) {
      this.#client.destroy();
    }
  }

  /**
   * The client's own timeout covers only a command waiting to be sent; this one also covers a sent
   * one. It rejects after the I/O that follows the timer: an answer that arrived while this process
   * was busy past the deadline (its event loop blocked) still counts — the deadline is Redis's.
   */
  #answerWithin<T>(command: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => setImmediate(() => reject(new RedisCommandTimeoutError(this.#timeoutMs, command))), this.#timeoutMs);
    });
    return Promise.race([command, deadline]).finally(() => clearTimeout(timer));
  }

  #failed(error: unknown): void {
    if (this.#outage !== null || this.#closed) return;
    const reason = error instanceof Error ? error.message : String(error);
    this.#outage = { since: this.#now(), reason };
    this.#options.onUnavailable?.();
    const during = this.#options.duringOutage?.();
    this.#logger?.error(
      { redis: this.location, reason },
      `${this.#subject}: Redis at ${this.location} is unavailable (${reason}).${during === undefined ? '' : ` ${during}`} Said once per outage.`,
    );
  }

  #succeeded(): void {
    if (this.#outage === null || !this.#client.isReady) return;
    const seconds = Math.round((this.#now() - this.#outage.since) / 1000);
    this.#outage = null;
    const after = this.#options.afterOutage?.();
    this.#logger?.info(
      { redis: this.location, ...after?.fields },
      `${this.#subject}: Redis at ${this.location} is available again after ${seconds} s${after === undefined ? '' : ` ${after.note}`}.`,
    );
  }
}
