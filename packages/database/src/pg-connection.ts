import { nullLogger, type Logger } from '@switchboard/http-kernel';
import { DatabaseTimeoutError } from './database-timeout-error.js';
import type { ExpiringConnection } from './expiring-connection.js';
import type { PgQueryable, PgQueryableLike, PgQueryResultLike } from './pg-like.js';

/** One physical `pg` handle and the work running on it. */
interface Handle<T extends PgQueryableLike> {
  readonly pg: T;
  readonly openedAt: number;
  /** Resolves when the handle can take queries (a Client must connect first). */
  readonly ready: Promise<void>;
  inFlight: number;
  /** The last query queued on a handle that takes one query at a time. */
  tail: Promise<unknown>;
  retiring: boolean;
  ended: Promise<void> | null;
  endNow: (() => void) | null;
}

export interface PgConnectionOptions {
  name?: string;
  logger?: Logger;
}

/**
 * Base of the `pg` adapters: opens a handle lazily on first use, counts the queries running on
 * it, and on `close()` detaches it at once but ends it only when those queries are done, so
 * closing never fails a request that is using the connection.
 */
export abstract class PgConnection<T extends PgQueryableLike> implements ExpiringConnection, PgQueryable {
  readonly name: string;
  protected readonly logger: Logger;
  #current: Handle<T> | null = null;

  constructor(options: PgConnectionOptions = {}) {
    this.name = options.name ?? 'default';
    this.logger = (options.logger ?? nullLogger).child({ channel: 'database' });
  }

  /** Creates the physical handle and readies it (a Client connects). */
  protected abstract open(): { pg: T; ready: Promise<void> };

  /** A pg Client runs one query at a time (queueing on it is deprecated); a Pool runs many. */
  protected readonly oneQueryAtATime: boolean = false;

  /** Called when the handle emitted `error` (typically: the server hung up). */
  protected onHandleError(_error: Error, _handle: T): void {}

  openedAt(): number | null {
    return this.#current?.openedAt ?? null;
  }

  /** A timeout (the pool's `connectionTimeoutMillis`, the server's `statement_timeout`…) rejects with a `DatabaseTimeoutError`. */
  query<Row = Record<string, unknown>>(text: string, values?: unknown[]): Promise<PgQueryResultLike<Row>> {
    return this.#using(async (handle) => {
      if (!this.oneQueryAtATime) return (await handle.pg.query(text, values)) as PgQueryResultLike<Row>;
      const result = handle.tail.then(() => handle.pg.query(text, values));
      handle.tail = result.catch(() => undefined);
      return (await result) as PgQueryResultLike<Row>;
    });
  }

  /**
   * Resolves once the server answers `SELECT 1` (opening the connection if need be); rejects as
   * a query would, a timeout with a `DatabaseTimeoutError` (a readiness check).
   */
  async ping(): Promise<void> {
    await this.query('SELECT 1');
  }

  /** Runs `work` on the current handle (opened if need be), counted as running on it so that closing waits for it. */
  protected withHandle<R>(work: (pg: T) => Promise<R>): Promise<R> {
    return this.#using((handle) => work(handle.pg));
  }

  async #using<R>(work: (handle: Handle<T>) => Promise<R>): Promise<R> {
    const handle = this.#handle();
    handle.inFlight++;
    try {
      await handle.ready;
      return await work(handle);
    } catch (error) {
      throw DatabaseTimeoutError.from(error, this.name);
    } finally {
      handle.inFlight--;
      if (handle.retiring && handle.inFlight === 0) handle.endNow?.();
    }
  }

  close(): Promise<void> {
    const handle = this.#current;
    if (handle === null) return Promise.resolve();
    return this.retire(handle.pg);
  }

  /** Detaches `pg` if it is the current handle; ends it once idle. */
  protected retire(pg: T): Promise<void> {
    const handle = this.#current?.pg === pg ? this.#current : null;
    if (handle === null) return Promise.resolve();
    this.#current = null;
    handle.retiring = true;
    handle.ended ??= new Promise<void>((resolve, reject) => {
      handle.endNow = () => {
        handle.endNow = null;
        // A handle that never connected has nothing to end beyond its failed attempt.
        handle.ready
          .then(
            () => handle.pg.end(),
            () => undefined,
          )
          .then(resolve, reject);
      };
      if (handle.inFlight === 0) handle.endNow();
    });
    return handle.ended;
  }

  #handle(): Handle<T> {
    if (this.#current !== null) return this.#current;
    const { pg, ready } = this.open();
    const handle: Handle<T> = {
      pg,
      openedAt: Date.now(),
      ready,
      inFlight: 0,
      tail: Promise.resolve(),
      retiring: false,
      ended: null,
      endNow: null,
    };
    pg.on('error', (error) => {
      this.logger.warn({ connection: this.name, error: error.message }, `Database connection "${this.name}" reported: ${error.message}`);
      this.onHandleError(error, pg);
    });
    // A handle that failed to open is dropped, so the next use tries again.
    ready.catch(() => {
      if (this.#current === handle) this.#current = null;
    });
    this.#current = handle;
    return handle;
  }
}
