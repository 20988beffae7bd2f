import { PgliteConnection, PgPoolConnection, type ExpiringConnection, type TransactionalQueryable } from '@switchboard/database';
import type { Logger } from '@switchboard/http-kernel';
import pg from 'pg';
import { lockDataDirectory } from './data-directory-lock.js';
import { migrate } from './migrations.js';
import { secureDataDirectory } from './secure-data-directory.js';

/** What the repository and the idle-connection step use, whichever database is behind it. */
export type DatabaseConnection = TransactionalQueryable & ExpiringConnection;

/** The example host's database: a `pg` pool on a server, or PGlite in this process. */
export interface Database {
  /** `postgres` (from `DATABASE_URL`) or `pglite` (embedded). */
  readonly kind: 'postgres' | 'pglite';
  readonly connection: DatabaseConnection;
  /**
   * Calls `onNotification` with the payload of each `NOTIFY` on `channel` (a plain identifier), from
   * any process using the database; resolves to what stops listening.
   */
  listen(channel: string, onNotification: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** A PostgreSQL URL; without one an embedded PGlite is started. */
  url?: string | undefined;
  /** PGlite data directory, created when missing; `memory://` (the default here) keeps the data for the process's lifetime only. */
  pgliteDataDir?: string | undefined;
  /** Longest wait for a connection (or the embedded database's turn), and longest statement, in ms. Default 5000. */
  timeoutMs?: number;
  logger?: Logger;
}

/** PGlite's name for a database that lives in memory only. */
export const IN_MEMORY = 'memory://';

/** How many connections the pool opens at most. */
const POOL_SIZE = 8;

export const DEFAULT_DATABASE_TIMEOUT_MS = 5000;

/**
 * Opens the database and migrates its schema. Without a URL, PGlite runs in this process and is
 * queried in process (no socket: nothing else can reach it), through the same query interface as
 * the pool.
 */
export async function openDatabase(options: DatabaseOptions = {}): Promise<Database> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_DATABASE_TIMEOUT_MS;
  if (options.url !== undefined && options.url !== '') {
    const { url } = options;
    const connection = new PgPoolConnection({
      name: 'default',
      ...(options.logger === undefined ? {} : { logger: options.logger }),
      // A full pool, a stalled server or a held lock answers 503 after `timeoutMs` instead of holding the request.
      createPool: () =>
        new pg.Pool({ connectionString: url, max: POOL_SIZE, connectionTimeoutMillis: timeoutMs, statement_timeout: timeoutMs }),
    });
    await migrate(connection);
    return {
      kind: 'postgres',
      connection,
      listen: (channel, onNotification) => listenOnServer(url, channel, onNotification),
      close: () => connection.close(),
    };
  }

  // A link is followed once: PGlite, the lock and the permissions all use the real folder.
  const dataDir =
    options.pgliteDataDir === undefined || options.pgliteDataDir === IN_MEMORY ? IN_MEMORY : secureDataDirectory(options.pgliteDataDir);
  // PGlite is one process's engine: a second host on the same folder would corrupt it.
  let unlock = (): void => undefined;
  if (dataDir !== IN_MEMORY) unlock = lockDataDirectory(dataDir);
  try {
    const { PGlite } = await import('@electric-sql/pglite');
    const db = await PGlite.create(dataDir);
    const connection = new PgliteConnection({ name: 'default', db, timeoutMs });
    // A first start has just created the cluster's files.
    if (dataDir !== IN_MEMORY) secureDataDirectory(dataDir);
    await migrate(connection);
    return {
      kind: 'pglite',
      connection,
      listen: (channel, onNotification) => db.listen(plainIdentifier(channel), onNotification),
      async close() {
        await connection.end();
        unlock();
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}

/** How long a lost listening session waits before it connects again. */
const RELISTEN_DELAY_MS = 500;

/**
 * A session of its own that only listens: pooled connections come and go, a LISTEN must stay.
 * Servers and poolers end idle sessions (`idle_session_timeout`, pgbouncer), and a listening
 * session is always idle: when it ends, a new one listens again, then `onNotification` runs once
 * so the listener reads from its table what was written while nobody listened.
 */
async function listenOnServer(url: string, channel: string, onNotification: (payload: string) => void): Promise<() => Promise<void>> {
  let session: pg.Client | null = null;
  let stopped = false;
  let relisten: NodeJS.Timeout | undefined;
  const scheduleRelisten = (): void => {
    if (stopped || relisten !== undefined) return;
    relisten = setTimeout(() => {
      relisten = undefined;
      connect().then(
        () => onNotification(''),
        () => scheduleRelisten(),
      );
    }, RELISTEN_DELAY_MS).unref();
  };
  const connect = async (): Promise<void> => {
    const client = new pg.Client({ connectionString: url });
    client.on('error', () => undefined);
    client.on('end', scheduleRelisten);
    client.on('notification', (message) => {
      if (message.channel === channel) onNotification(message.payload ?? '');
    });
    await client.connect();
    await client.query(`LISTEN ${plainIdentifier(channel)}`);
    session = client;
  };
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(relisten);
    await session?.end();
  };
}

function plainIdentifier(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new RangeError(`Not a plain channel name: ${name}`);
  return name;
}
