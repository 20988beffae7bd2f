import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/kit/services/database-servers.js';
import { pgliteDataFolder, type PgliteDataFolder } from '../../../test/kit/services/pglite-data.js';
import { startHostInProcess, type StartedHost } from './support/start-host.js';

/**
 * A database that does not answer holds no request for long: past `DATABASE_TIMEOUT` the request
 * answers 503 problem+json with `Retry-After`, and the next one is served once the database
 * answers again. Against a real PostgreSQL whose table another client locks, and against the
 * embedded PGlite while a transaction holds it.
 */
const TIMEOUT_SECONDS = '3';

async function expectUnavailable(host: StartedHost): Promise<void> {
  const response = await fetch(`${host.running.url}/api/items`, { headers: { accept: 'application/json' } });
  expect(response.status).toBe(503);
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(await response.json()).toMatchObject({ status: 503 });
}

async function expectServed(host: StartedHost): Promise<void> {
  expect((await fetch(`${host.running.url}/api/items`, { headers: { accept: 'application/json' } })).status).toBe(200);
}

describe('PostgreSQL with a table locked by another client', () => {
  let database: TestDatabase;
  let host: StartedHost;
  let locker: pg.Client;

  beforeAll(async () => {
    database = await createTestDatabase();
    host = await startHostInProcess({ APP_DEBUG: '0', DATABASE_URL: database.connectionString, DATABASE_TIMEOUT: TIMEOUT_SECONDS });
    locker = new pg.Client({ connectionString: database.connectionString });
    await locker.connect();
  });

  afterAll(async () => {
    await locker?.end().catch(() => undefined);
    await host?.stop();
    await database?.stop();
  });

  it('answers 503 with Retry-After while the lock is held (more requests than the pool has connections), then serves again', async () => {
    await expectServed(host);
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE items IN ACCESS EXCLUSIVE MODE');
    try {
      // Twelve at once: beyond the pool's eight connections, the rest wait for one, bounded too.
      await Promise.all(Array.from({ length: 12 }, () => expectUnavailable(host)));
    } finally {
      await locker.query('ROLLBACK');
    }
    await expectServed(host);
  });
});

describe('embedded PGlite held by a transaction', () => {
  let folder: PgliteDataFolder;
  let host: StartedHost;

  beforeAll(async () => {
    folder = await pgliteDataFolder();
    host = await startHostInProcess({ APP_DEBUG: '0', PGLITE_DATA_DIR: folder.path, DATABASE_TIMEOUT: TIMEOUT_SECONDS });
  });

  afterAll(async () => {
    await host?.stop();
    await folder?.remove();
  });

  it('answers 503 with Retry-After while the transaction runs, then serves again', async () => {
    await expectServed(host);
    let release = (): void => undefined;
    const held = host.app.database.connection.transaction(async (tx) => {
      await tx.query('SELECT count(*) FROM items');
      await new Promise<void>((resolve) => (release = resolve));
    });
    try {
      await Promise.all(Array.from({ length: 3 }, () => expectUnavailable(host)));
    } finally {
      release();
      await held;
    }
    await expectServed(host);
  });
});
