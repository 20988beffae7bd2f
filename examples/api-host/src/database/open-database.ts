import { PgPoolConnection } from '@switchboard/database';
import type { Logger } from '@switchboard/http-kernel';
import pg from 'pg';
import { lockDataDirectory } from './data-directory-lock.js';
import { migrate } from './migrations.js';

/** The example host's database: a `pg` pool, whichever server is behind it. */
export interface Database {
  /** `postgres` (from `DATABASE_URL`) or `pglite` (embedded). */
  readonly kind: 'postgres' | 'pglite';
  readonly connection: PgPoolConnection<pg.Pool>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** A PostgreSQL URL; without one an embedded PGlite is started. */
  url?: string | undefined;
  /** PGlite data directory, created when missing; `memory://` (the default here) keeps the data for the process's lifetime only. */
  pgliteDataDir?: string | undefined;
  logger?: Logger;
}

/** PGlite's name for a database that lives in memory only. */
export const IN_MEMORY = 'memory://';

/** How many connections the pool opens at most (and the embedded server accepts). */
const POOL_SIZE = 8;

/**
 * Opens the database and migrates its schema. Without a URL, PGlite runs in this process and is
 * served on a loopback port by pglite-socket, so the very same `pg` code path is used either way.
 */
export async function openDatabase(options: DatabaseOptions = {}): Promise<Database> {
  const pooled = (connectionString: string) =>
    new PgPoolConnection({
      name: 'default',
      ...(options.logger === undefined ? {} : { logger: options.logger }),
      createPool: () => new pg.Pool({ connectionString, max: POOL_SIZE }),
    });

  if (options.url !== undefined && options.url !== '') {
    const connection = pooled(options.url);
    await migrate(connection);
    return { kind: 'postgres', connection, close: () => connection.close() };
  }

  const dataDir = options.pgliteDataDir ?? IN_MEMORY;
  // PGlite is one process's engine: a second host on the same folder would corrupt it.
  const unlock = dataDir === IN_MEMORY ? () => undefined : lockDataDirectory(dataDir);
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const db = await PGlite.create(dataDir);
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: POOL_SIZE * 2 });
  await server.start();
  const connection = pooled(`postgresql://postgres@${server.getServerConn()}/postgres?sslmode=disable`);
  await migrate(connection);
  return {
    kind: 'pglite',
    connection,
    async close() {
      await connection.close();
      await server.stop();
      await db.close();
      unlock();
    },
  };
}
