/**
 * @switchboard/database — database connections kept usable across idle periods: the
 * `IdleConnectionListener` step, the `ExpiringConnection` contract it closes, two node-postgres
 * adapters and an in-process PGlite one, typed structurally (no dependency on `pg` or PGlite),
 * all offering the same `query`; database timeouts surface as `DatabaseTimeoutError` (503).
 */
export { IdleConnectionListener, type IdleConnectionListenerOptions } from './idle-connection-listener.js';
export type { ExpiringConnection } from './expiring-connection.js';
export type {
  PgClientLike,
  PgPoolClientLike,
  PgPoolLike,
  PgQueryable,
  PgQueryableLike,
  PgQueryResultLike,
  TransactionalQueryable,
} from './pg-like.js';
export { DatabaseTimeoutError } from './database-timeout-error.js';
export {
  PgliteConnection,
  type PgliteConnectionOptions,
  type PgliteLike,
  type PgliteQueryableLike,
  type PgliteResultLike,
} from './pglite-connection.js';
export { PgConnection, type PgConnectionOptions } from './pg-connection.js';
export { PgClientConnection, type PgClientConnectionOptions } from './pg-client-connection.js';
export { PgPoolConnection, type PgPoolConnectionOptions } from './pg-pool-connection.js';
