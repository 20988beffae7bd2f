import { IdleConnectionListener } from '@switchboard/database';
import { resolve } from 'node:path';
import { ConfigError, HOST_ROOT } from '../config.js';
import { DEFAULT_DATABASE_TIMEOUT_MS, IN_MEMORY, openDatabase, type Database } from '../database/open-database.js';
import type { HostContext, Wiring } from './wiring.js';

export interface DatabaseConfig {
  /** A PostgreSQL URL (env `DATABASE_URL`); unset or empty → embedded PGlite. */
  url?: string | undefined;
  /**
   * The embedded database's folder (env `PGLITE_DATA_DIR`, relative to this example's folder),
   * default `var/pglite` (git-ignored): items survive a restart. `memory://` keeps them in memory only.
   */
  pgliteDataDir?: string;
  /** Close connections older than this before a request; keep it under the server's idle limit. Env `DATABASE_IDLE_TTL`, default 600. */
  idleConnectionTtlSeconds?: number;
  /**
   * Longest wait, in seconds, for a connection of the pool (or the embedded database's turn), and
   * longest statement; past it the request answers 503 with `Retry-After`. Env `DATABASE_TIMEOUT`, default 5.
   */
  timeoutSeconds?: number;
}

export function databaseConfigFromEnv(env: NodeJS.ProcessEnv): DatabaseConfig {
  const ttl = env['DATABASE_IDLE_TTL']?.trim();
  if (ttl !== undefined && ttl !== '' && !(Number(ttl) >= 0)) throw new RangeError(`DATABASE_IDLE_TTL must be seconds ≥ 0, got "${ttl}".`);
  const timeout = env['DATABASE_TIMEOUT']?.trim();
  if (timeout !== undefined && timeout !== '' && !(Number(timeout) > 0))
    throw new ConfigError(`DATABASE_TIMEOUT must be seconds > 0, got "${timeout}".`);
  const dataDir = env['PGLITE_DATA_DIR']?.trim();
  return {
    url: env['DATABASE_URL']?.trim(),
    pgliteDataDir:
      dataDir === undefined || dataDir === '' ? DEFAULT_PGLITE_DATA_DIR : dataDir === IN_MEMORY ? IN_MEMORY : resolve(HOST_ROOT, dataDir),
    ...(ttl === undefined || ttl === '' ? {} : { idleConnectionTtlSeconds: Number(ttl) }),
    ...(timeout === undefined || timeout === '' ? {} : { timeoutSeconds: Number(timeout) }),
  };
}

export const DEFAULT_PGLITE_DATA_DIR = resolve(HOST_ROOT, 'var/pglite');

export interface WiredDatabase extends Wiring {
  /** Open and migrated; closed when the app shuts down. */
  readonly database: Database;
}

/**
 * The database-connection step: opens the database (migrating the schema) and registers its
 * connection with the idle-connection listener (kernel.request 192). The database is closed on
 * the host's shutdown. `config` defaults to what the environment says (`databaseConfigFromEnv`).
 */
export async function wireDatabase(
  host: Pick<HostContext, 'env' | 'logger'>,
  config: DatabaseConfig = databaseConfigFromEnv(host.env),
): Promise<WiredDatabase> {
  const { logger } = host;
  const embedded = config.url === undefined || config.url === '';
  const dataDir = config.pgliteDataDir ?? IN_MEMORY;
  if (embedded) {
    // The first start creates the database (several seconds): say so before the wait.
    logger.info(
      { dataDir },
      dataDir === IN_MEMORY
        ? 'Database: starting embedded PGlite in memory (items are lost when the host stops)…'
        : `Database: starting embedded PGlite in ${dataDir} (no DATABASE_URL)…`,
    );
  }
  const timeoutMs = config.timeoutSeconds === undefined ? DEFAULT_DATABASE_TIMEOUT_MS : config.timeoutSeconds * 1000;
  const database = await openDatabase({ url: config.url, pgliteDataDir: dataDir, timeoutMs, logger });
  const ttl = config.idleConnectionTtlSeconds ?? IdleConnectionListener.DEFAULT_TTL_SECONDS;
  logger.info({ database: database.kind }, embedded ? 'Database: embedded PGlite ready.' : 'Database: PostgreSQL from DATABASE_URL.');
  return {
    database,
    subscribers: [new IdleConnectionListener({ logger }).register(database.connection, ttl)],
    onShutdown: () => database.close(),
  };
}
