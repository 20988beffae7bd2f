import { PgConnection, type PgConnectionOptions } from './pg-connection.js';
import type { PgPoolLike, PgQueryable, PgQueryResultLike, TransactionalQueryable } from './pg-like.js';

export interface PgPoolConnectionOptions<P extends PgPoolLike> extends PgConnectionOptions {
  /**
   * Makes a new pool, e.g. `() => new pg.Pool({ connectionString, connectionTimeoutMillis: 5000, statement_timeout: 5000 })`;
   * called again after each close. Bound the waits there: a timeout becomes a `DatabaseTimeoutError` (503).
   */
  createPool: () => P;
}

/**
 * A `pg.Pool` the idle-connection step can retire: closing swaps in a fresh pool for the next
 * query and ends the old one when its running queries are done. The pool itself drops idle
 * members the server disconnected; the step also catches those it would not notice.
 */
export class PgPoolConnection<P extends PgPoolLike = PgPoolLike> extends PgConnection<P> implements TransactionalQueryable {
  readonly #createPool: () => P;

  constructor(options: PgPoolConnectionOptions<P>) {
    super(options);
    this.#createPool = options.createPool;
  }

  protected open(): { pg: P; ready: Promise<void> } {
    return { pg: this.#createPool(), ready: Promise.resolve() };
  }

  /** Runs `work` on one client of the pool between `BEGIN` and `COMMIT` (`ROLLBACK` when it throws). */
  transaction<T>(work: (tx: PgQueryable) => Promise<T>): Promise<T> {
    return this.withHandle(async (pool) => {
      const client = await pool.connect();
      const tx: PgQueryable = {
        query: async <Row>(text: string, values?: unknown[]) => (await client.query(text, values)) as PgQueryResultLike<Row>,
      };
      try {
        await client.query('BEGIN');
        const result = await work(tx);
        await client.query('COMMIT');
        client.release();
        return result;
      } catch (error) {
        // A client whose rollback failed is in an unknown state: the pool closes it.
        const broken = await client.query('ROLLBACK').then(
          () => undefined,
          (rollbackError: unknown) => (rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError))),
        );
        client.release(broken);
        throw error;
      }
    });
  }
}
