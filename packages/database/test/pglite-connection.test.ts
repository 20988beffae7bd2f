import { afterAll, beforeAll, expect, it } from 'vitest';
import { DatabaseTimeoutError, PgliteConnection, type PgliteLike } from '../src/index.js';
import { pgliteDataFolder, type PgliteDataFolder } from '../../../test/kit/services/pglite-data.js';

/**
 * The in-process PGlite adapter against a real PGlite: the query interface of the pg adapters,
 * transactions that never interleave (PGlite is one session), and a bounded wait for the turn.
 */
let folder: PgliteDataFolder;
let db: PgliteLike;
/** A bound no test reaches on a busy machine, except where work is held on purpose. */
let connection: PgliteConnection;

beforeAll(async () => {
  const { PGlite } = await import('@electric-sql/pglite');
  folder = await pgliteDataFolder();
  db = await PGlite.create(folder.path);
  connection = new PgliteConnection({ db, timeoutMs: 60_000 });
  await connection.query('CREATE TABLE counter (n integer NOT NULL); INSERT INTO counter VALUES (0); CREATE TABLE notes (text text)');
});

afterAll(async () => {
  await connection?.end();
  await folder?.remove();
});

/** A promise and the function that resolves it. */
function gate(): { opened: Promise<void>; open(): void } {
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

it('answers like the pg adapters: rows, parameters, rowCount, several statements without parameters', async () => {
  expect((await connection.query<{ answer: number }>('SELECT $1::int + 1 AS answer', [41])).rows).toEqual([{ answer: 42 }]);
  await connection.query('INSERT INTO notes VALUES ($1), ($2)', ['a', 'b']);
  expect((await connection.query('DELETE FROM notes WHERE text = $1', ['a'])).rowCount).toBe(1);
  const last = await connection.query<{ count: number }>("INSERT INTO notes VALUES ('c'); SELECT count(*)::int AS count FROM notes");
  expect(last.rows).toEqual([{ count: 2 }]);
  await connection.query('DELETE FROM notes');
});

it('runs concurrent transactions one after the other: no lost update, no statement inside another transaction', async () => {
  const increments = Array.from({ length: 20 }, () =>
    connection.transaction(async (tx) => {
      const { rows } = await tx.query<{ n: number }>('SELECT n FROM counter');
      // Other requests get the event loop here; none of their statements may run in this transaction.
      await new Promise((resolve) => setTimeout(resolve, 1));
      await tx.query('UPDATE counter SET n = $1', [rows[0]!.n + 1]);
    }),
  );
  // A statement of another request, and a transaction that fails: neither sees or spoils the others.
  const failing = connection.transaction(async (tx) => {
    await tx.query("INSERT INTO notes VALUES ('rolled back')");
    throw new Error('the controller failed');
  });
  const outside = connection.query("INSERT INTO notes VALUES ('kept')");
  await Promise.all([...increments, outside]);
  await expect(failing).rejects.toThrow('the controller failed');
  expect((await connection.query<{ n: number }>('SELECT n FROM counter')).rows).toEqual([{ n: 20 }]);
  expect((await connection.query('SELECT text FROM notes')).rows).toEqual([{ text: 'kept' }]);
  await connection.query('DELETE FROM notes');
});

it('a query that waits past the bound behind a held transaction gives up with a 503, and never runs later', async () => {
  // A connection of its own with a short bound: only the transaction this test holds makes anything wait.
  const bounded = new PgliteConnection({ db, timeoutMs: 300 });
  const release = gate();
  const held = bounded.transaction(async (tx) => {
    await tx.query("INSERT INTO notes VALUES ('held')");
    await release.opened;
  });
  const waiting = bounded.query("INSERT INTO notes VALUES ('gave up')");
  const error = await waiting.catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(DatabaseTimeoutError);
  expect(error).toMatchObject({ status: 503, headers: { 'retry-after': '1' } });
  release.open();
  await held;
  expect((await connection.query('SELECT text FROM notes ORDER BY text')).rows).toEqual([{ text: 'held' }]);
});

it('never expires for the idle-connection step: there is no server to drop the session', async () => {
  expect(connection.openedAt()).toBeNull();
  await connection.close();
  expect((await connection.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
});

it('ping resolves once the database answers in its turn (a readiness check)', async () => {
  await expect(connection.ping()).resolves.toBeUndefined();
});
