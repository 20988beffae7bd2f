import { IdleConnectionListener, type EventDispatcher, type KernelEventMap, type Logger } from '@switchboard/http-kernel';
import { openDatabase, type Database } from '../database/open-database.js';

/** What this wiring needs from the app (the `App` of `app.ts` fits). */
export interface DatabaseHost {
  dispatcher: EventDispatcher<KernelEventMap>;
  logger?: Logger;
  /** Where `DATABASE_URL` and `DATABASE_IDLE_TTL` are read. */
  config?: { env: NodeJS.ProcessEnv };
  /** The database is closed there when the host stops. */
  onShutdown?(cleanup: () => Promise<void>): void;
}

export interface DatabaseConfig {
  /** A PostgreSQL URL (env `DATABASE_URL`); unset or empty → embedded PGlite. */
  url?: string | undefined;
  /** Close connections older than this before a request; keep it under the server's idle limit. Env `DATABASE_IDLE_TTL`, default 600. */
  idleConnectionTtlSeconds?: number;
}

export function databaseConfigFromEnv(env: NodeJS.ProcessEnv): DatabaseConfig {
  const ttl = env['DATABASE_IDLE_TTL']?.trim();
  if (ttl !== undefined && ttl !== '' && !(Number(ttl) >= 0)) throw new RangeError(`DATABASE_IDLE_TTL must be seconds ≥ 0, got "${ttl}".`);
  return {
    url: env['DATABASE_URL']?.trim(),
    ...(ttl === undefined || ttl === '' ? {} : { idleConnectionTtlSeconds: Number(ttl) }),
  };
}

/**
 * The database-connection step: opens the database (migrating the schema) and registers its
 * connection with the idle-connection listener (kernel.request 192). The database is closed on
 * the host's shutdown.
 */
export async function wireDatabase(
  host: DatabaseHost,
  config: DatabaseConfig = databaseConfigFromEnv(host.config?.env ?? process.env),
): Promise<Database> {
  const logger = host.logger === undefined ? {} : { logger: host.logger };
  const database = await openDatabase({ url: config.url, ...logger });
  const ttl = config.idleConnectionTtlSeconds ?? IdleConnectionListener.DEFAULT_TTL_SECONDS;
  host.dispatcher.addSubscriber(new IdleConnectionListener(logger).register(database.connection, ttl));
  host.onShutdown?.(() => database.close());
  host.logger?.info({ database: database.kind }, database.kind === 'pglite' ? 'Database: embedded PGlite (no DATABASE_URL).' : 'Database: PostgreSQL from DATABASE_URL.');
  return database;
}
