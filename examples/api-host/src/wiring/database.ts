import { IdleConnectionListener, type EventDispatcher, type KernelEventMap, type Logger } from '@switchboard/http-kernel';
import { openDatabase, type Database } from '../database/open-database.js';

/** What this wiring needs from the app. */
export interface DatabaseHost {
  dispatcher: EventDispatcher<KernelEventMap>;
  logger?: Logger;
}

export interface DatabaseConfig {
  /** A PostgreSQL URL (env `DATABASE_URL`); unset or empty → embedded PGlite. */
  url?: string | undefined;
  /** Close connections older than this before a request; keep it under the server's idle limit. Env `DATABASE_IDLE_TTL`, default 600. */
  idleConnectionTtlSeconds?: number;
}

export function databaseConfigFromEnv(env: NodeJS.ProcessEnv): DatabaseConfig {
  const ttl = env['DATABASE_IDLE_TTL'];
  return {
    url: env['DATABASE_URL'],
    ...(ttl === undefined || ttl === '' ? {} : { idleConnectionTtlSeconds: Number(ttl) }),
  };
}

/**
 * The database-connection step: opens the database (migrating the schema) and registers its
 * connection with the idle-connection listener (kernel.request 192). Close the returned database on shutdown.
 */
export async function wireDatabase(host: DatabaseHost, config: DatabaseConfig = {}): Promise<Database> {
  const logger = host.logger === undefined ? {} : { logger: host.logger };
  const database = await openDatabase({ url: config.url, ...logger });
  const ttl = config.idleConnectionTtlSeconds ?? IdleConnectionListener.DEFAULT_TTL_SECONDS;
  host.dispatcher.addSubscriber(new IdleConnectionListener(logger).register(database.connection, ttl));
  return database;
}
