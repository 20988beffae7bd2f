/**
 * @switchboard/database — database connections kept usable across idle periods: the
 * `IdleConnectionListener` step, the `ExpiringConnection` contract it closes, and two node-postgres
 * adapters typed structurally (no dependency on `pg`).
 */
export { IdleConnectionListener, type IdleConnectionListenerOptions } from './idle-connection-listener.js';
export type { ExpiringConnection } from './expiring-connection.js';
export type { PgClientLike, PgPoolLike, PgQueryable, PgQueryableLike, PgQueryResultLike } from './pg-like.js';
export { PgConnection, type PgConnectionOptions } from './pg-connection.js';
export { PgClientConnection, type PgClientConnectionOptions } from './pg-client-connection.js';
export { PgPoolConnection, type PgPoolConnectionOptions } from './pg-pool-connection.js';
