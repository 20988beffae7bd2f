import {
  nullLogger,
  type EventSubscriber,
  type KernelEventMap,
  type Logger,
  type RequestEvent,
  type SubscribedEvents,
} from '@switchboard/http-kernel';
import type { ExpiringConnection } from './expiring-connection.js';

export interface IdleConnectionListenerOptions {
  logger?: Logger;
  /** The clock, in ms since the epoch. */
  now?: () => number;
}

interface Registration {
  readonly connection: ExpiringConnection;
  readonly ttlMs: number;
}

/**
 * Keeps database connections usable across idle periods: before each request (main and sub),
 * every registered connection open longer than its time-to-live is closed, so the request's first
 * query opens a fresh one instead of meeting one the server (or a firewall) dropped meanwhile.
 * The age counts from the connect, not from the last query, as Symfony does: keep the TTL
 * below the server's idle limit (`idle_session_timeout`, a proxy's timeout).
 */
export class IdleConnectionListener implements EventSubscriber<KernelEventMap> {
  /**
   * Before every listener that may query (`RouterListener.REQUEST_PRIORITY`,
   * `FirewallListener.REQUEST_PRIORITY`); after `CorsListener.REQUEST_PRIORITY`, as a preflight needs no database.
   */
  static readonly REQUEST_PRIORITY = 192;
  /** Symfony's default time-to-live. */
  static readonly DEFAULT_TTL_SECONDS = 600;

  readonly #registrations: Registration[] = [];
  readonly #logger: Logger;
  readonly #now: () => number;

  constructor(options: IdleConnectionListenerOptions = {}) {
    this.#logger = (options.logger ?? nullLogger).child({ channel: 'database' });
    this.#now = options.now ?? Date.now;
  }

  /** Registers a connection; `ttlSeconds` may be fractional, 0 leaves the connection alone. */
  register(connection: ExpiringConnection, ttlSeconds = IdleConnectionListener.DEFAULT_TTL_SECONDS): this {
    if (!(ttlSeconds >= 0)) throw new RangeError(`A connection TTL must be 0 or more seconds, got ${ttlSeconds}.`);
    if (ttlSeconds > 0) this.#registrations.push({ connection, ttlMs: ttlSeconds * 1000 });
    return this;
  }

  getSubscribedEvents(): SubscribedEvents<KernelEventMap> {
    return {
      'kernel.request': [this.onKernelRequest, IdleConnectionListener.REQUEST_PRIORITY],
    };
  }

  onKernelRequest(_event: RequestEvent): void {
    const now = this.#now();
    for (const { connection, ttlMs } of this.#registrations) {
      const openedAt = connection.openedAt();
      if (openedAt === null || now < openedAt + ttlMs) continue;
      this.#logger.debug(
        { connection: connection.name, ageMs: now - openedAt },
        `Closing database connection "${connection.name}" past its time-to-live.`,
      );
      // close() detaches synchronously, so the request goes on at once and its first query reconnects;
      // ending the old connection finishes in the background and may fail without harm.
      connection.close().catch((error: unknown) => {
        this.#logger.warn(
          { connection: connection.name, error: String(error) },
          `Closing database connection "${connection.name}" failed.`,
        );
      });
    }
  }
}
