import { PgConnection, type PgConnectionOptions } from './pg-connection.js';
import type { PgPoolLike } from './pg-like.js';

export interface PgPoolConnectionOptions<P extends PgPoolLike> extends PgConnectionOptions {
  /** Makes a new pool, e.g. `() => new pg.Pool({ connectionString })`; called again after each close. */
  createPool: () => P;
}

/**
 * A `pg.Pool` the idle-connection step can retire: closing swaps in a fresh pool for the next
 * query and ends the old one when its running queries are done. The pool itself drops idle
 * members the server disconnected; the step also catches those it would not notice.
 */
export class PgPoolConnection<P extends PgPoolLike = PgPoolLike> extends PgConnection<P> {
  readonly #createPool: () => P;

  constructor(options: PgPoolConnectionOptions<P>) {
    super(options);
    this.#createPool = options.createPool;
  }

  protected open(): { pg: P; ready: Promise<void> } {
    return { pg: this.#createPool(), ready: Promise.resolve() };
  }
}
