import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventDispatcher, HttpKernel, JsonResponse, MemoryLogger, Request, type KernelEventMap } from '@switchboard/http-kernel';
import { IdleConnectionListener, PgClientConnection, PgPoolConnection, type ExpiringConnection, type PgQueryable } from '../src/index.js';
import { SERVER_IDLE_TIMEOUT_MS, endPool, idleDroppingDatabase, type TestDatabase } from '../../../test/kit/services/database-servers.js';

/** Longer than the server's idle limit, so any connection left open across it is dead. */
const IDLE_PAUSE_MS = SERVER_IDLE_TIMEOUT_MS + 600;
/** Well under the server's idle limit, as the listener's docs ask. */
const TTL_SECONDS = 0.4;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A kernel whose one controller runs a query; `step` registers the connection with the idle-connection listener. */
function databaseKernel(connection: PgQueryable & ExpiringConnection, step: boolean) {
  const dispatcher = new EventDispatcher<KernelEventMap>();
  if (step) dispatcher.addSubscriber(new IdleConnectionListener().register(connection, TTL_SECONDS));
  const kernel = new HttpKernel({ dispatcher, logger: new MemoryLogger() });
  return async (): Promise<number> => {
    const request = Request.fromUrl('http://localhost/items');
    request.attributes.set('_controller', async () => {
      const result = await connection.query<{ answer: number }>('SELECT 41 + 1 AS answer');
      return new JsonResponse(result.rows[0]);
    });
    const response = await kernel.handle(request);
    if (response.status === 200) expect(JSON.parse(String(response.body))).toEqual({ answer: 42 });
    return response.status;
  };
}

describe.each([['PostgreSQL', idleDroppingDatabase]] as const)('idle connections against %s', (_kind, start) => {
  let server: TestDatabase;
  const opened: Array<{ end(): Promise<void> }> = [];
  const newClient = () => {
    const client = new pg.Client({ connectionString: server.connectionString });
    opened.push(client);
    return client;
  };
  const newPool = () => {
    const pool = new pg.Pool({ connectionString: server.connectionString, max: 4 });
    opened.push(pool);
    return pool;
  };

  beforeAll(async () => {
    server = await start();
  });
  afterAll(async () => {
    await Promise.allSettled(opened.map((handle) => (handle instanceof pg.Pool ? endPool(handle) : handle.end())));
    await server?.stop();
  });

  it('without the step, a client left idle past the server limit fails the next request', async () => {
    const connection = new PgClientConnection({ createClient: newClient, reconnectOnError: false });
    const handle = databaseKernel(connection, false);
    expect(await handle()).toBe(200);
    await pause(IDLE_PAUSE_MS);
    expect(await handle()).toBe(500);
    await connection.close();
  });

  it('with the step, every request after an idle period succeeds on a fresh client', async () => {
    let clients = 0;
    const connection = new PgClientConnection({ createClient: () => (clients++, newClient()), reconnectOnError: false });
    const handle = databaseKernel(connection, true);
    const statuses: number[] = [];
    for (let round = 0; round < 3; round++) {
      statuses.push(...(await Promise.all([handle(), handle(), handle()])));
      await pause(IDLE_PAUSE_MS);
    }
    statuses.push(await handle());
    expect(statuses).toEqual(Array(10).fill(200));
    // One client per round: the step closed each one that outlived its TTL, the next query reconnected.
    expect(clients).toBe(4);
    await connection.close();
  });

  it('with the step, a pool is replaced after idling and no request fails', async () => {
    let pools = 0;
    const connection = new PgPoolConnection({ createPool: () => (pools++, newPool()) });
    const handle = databaseKernel(connection, true);
    const statuses: number[] = [];
    for (let round = 0; round < 2; round++) {
      statuses.push(...(await Promise.all([handle(), handle(), handle(), handle(), handle()])));
      await pause(IDLE_PAUSE_MS);
    }
    statuses.push(await handle());
    expect(statuses).toEqual(Array(11).fill(200));
    expect(pools).toBe(3);
    await connection.close();
  });

  it('closing lets a running query finish and ends the client only afterwards', async () => {
    const connection = new PgClientConnection({ createClient: newClient });
    const running = connection.query<{ slept: string }>('SELECT pg_sleep(0.3)::text AS slept');
    await pause(50);
    expect(connection.openedAt()).not.toBeNull();
    const closed = connection.close();
    expect(connection.openedAt()).toBeNull();
    await expect(running).resolves.toMatchObject({ rows: [{ slept: '' }] });
    await closed;
    const next = await connection.query<{ one: number }>('SELECT 1 AS one');
    expect(next.rows).toEqual([{ one: 1 }]);
    await connection.close();
  });

  it('a pool transaction commits as a whole, or rolls back as a whole when its work throws', async () => {
    const connection = new PgPoolConnection({ createPool: newPool });
    await connection.query('DROP TABLE IF EXISTS tx_notes; CREATE TABLE tx_notes (n int)');
    await connection.transaction(async (tx) => {
      await tx.query('INSERT INTO tx_notes VALUES (1)');
      await tx.query('INSERT INTO tx_notes VALUES (2)');
    });
    const failed = connection.transaction(async (tx) => {
      await tx.query('INSERT INTO tx_notes VALUES (3)');
      throw new Error('the work failed');
    });
    await expect(failed).rejects.toThrow('the work failed');
    expect((await connection.query('SELECT n FROM tx_notes ORDER BY n')).rows).toEqual([{ n: 1 }, { n: 2 }]);
    await connection.query('DROP TABLE tx_notes');
    await connection.close();
  });

  it('a client that reports the server hung up is dropped and the next use reconnects', async () => {
    let clients = 0;
    const connection = new PgClientConnection({ createClient: () => (clients++, newClient()) });
    await connection.query('SELECT 1');
    await pause(IDLE_PAUSE_MS);
    await expect(connection.query('SELECT 2 AS two')).resolves.toMatchObject({ rows: [{ two: 2 }] });
    expect(clients).toBe(2);
    await connection.close();
  });
});

describe('IdleConnectionListener', () => {
  it('closes only connections older than their TTL, and none with TTL 0', () => {
    const closed: string[] = [];
    const fake = (name: string, openedAt: number | null): ExpiringConnection => ({
      name,
      openedAt: () => openedAt,
      close: async () => void closed.push(name),
    });
    let now = 10_000;
    const listener = new IdleConnectionListener({ now: () => now })
      .register(fake('old', 0), 5)
      .register(fake('young', 9_000), 5)
      .register(fake('never opened', null), 5)
      .register(fake('disabled', 0), 0);
    listener.onKernelRequest(undefined as never);
    expect(closed).toEqual(['old']);
    now = 14_000;
    listener.onKernelRequest(undefined as never);
    expect(closed).toEqual(['old', 'old', 'young']);
    expect(() => listener.register(fake('bad', 0), -1)).toThrow(RangeError);
  });

  it('logs a failed close instead of failing the request', async () => {
    const logger = new MemoryLogger();
    const listener = new IdleConnectionListener({ logger, now: () => 1e12 }).register(
      { name: 'flaky', openedAt: () => 0, close: () => Promise.reject(new Error('socket gone')) },
      1,
    );
    expect(() => listener.onKernelRequest(undefined as never)).not.toThrow();
    await pause(0);
    expect(logger.records.map((record) => record.message)).toContain('Closing database connection "flaky" failed.');
  });
});
