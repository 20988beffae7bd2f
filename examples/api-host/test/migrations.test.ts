/**
 * Migrations when several hosts start together on a new database (the workers of `WORKERS=N`,
 * instances behind a balancer): each step is applied once, and no host fails its start.
 */
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, endPool, type TestDatabase } from '../../../test/kit/services/database-servers.js';
import { MIGRATIONS, migrate } from '../src/database/migrations.js';

let postgres: TestDatabase;
beforeAll(async () => {
  postgres = await createTestDatabase();
});
afterAll(async () => {
  await postgres?.stop();
});

it('eight hosts migrating a new PostgreSQL database at once: every one succeeds, each step applied once', async () => {
  const pools = Array.from({ length: 8 }, () => new pg.Pool({ connectionString: postgres.connectionString, max: 2 }));
  try {
    const applied = await Promise.all(pools.map((pool) => migrate(pool)));
    expect(applied.reduce((sum, count) => sum + count, 0)).toBe(MIGRATIONS.length);
    const { rows } = await pools[0]!.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(rows.map((row) => row.version)).toEqual(MIGRATIONS.map((_step, index) => index + 1));
    expect(await Promise.all(pools.map((pool) => migrate(pool)))).toEqual(pools.map(() => 0));
  } finally {
    await Promise.all(pools.map(endPool));
  }
});

it('moves a database made with the per-row change trigger forward: a bulk insert or delete is recorded once per statement', async () => {
  const old = await createTestDatabase();
  const pool = new pg.Pool({ connectionString: old.connectionString, max: 2 });
  const listener = new pg.Client({ connectionString: old.connectionString });
  try {
    // The schema as the first two steps left it, with an item written through the old trigger.
    await pool.query('CREATE TABLE schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    for (const version of [1, 2])
      await pool.query(`${MIGRATIONS[version - 1]!}; INSERT INTO schema_migrations (version) VALUES (${version})`);
    await pool.query(`INSERT INTO items (name, quantity) VALUES ('before', 1)`);

    expect(await migrate(pool)).toBe(MIGRATIONS.length - 2);
    await listener.connect();
    const notified: string[] = [];
    listener.on('notification', (message) => notified.push(message.payload ?? ''));
    await listener.query('LISTEN item_changes');

    await pool.query(`INSERT INTO items (name, quantity) SELECT 'bulk ' || n, n FROM generate_series(1, 2500) AS n`);
    await pool.query(`DELETE FROM items WHERE name IN ('bulk 1', 'bulk 2', 'bulk 3')`);
    await listener.query('SELECT 1');
    const { rows } = await pool.query<{ id: number; kind: string; name: string }>(
      `SELECT id, kind, item->>'name' AS name FROM item_changes ORDER BY id`,
    );
    // The newest 1,000 changes are kept, in item order; the first change (the old trigger's) is long gone.
    expect(rows).toHaveLength(1000);
    expect(rows.at(-4)).toMatchObject({ kind: 'created', name: 'bulk 2500' });
    expect(rows.slice(-3).map((row) => [row.kind, row.name])).toEqual([
      ['deleted', 'bulk 1'],
      ['deleted', 'bulk 2'],
      ['deleted', 'bulk 3'],
    ]);
    // One notification per statement, naming its newest change.
    expect(notified).toEqual([String(rows.at(-4)!.id), String(rows.at(-1)!.id)]);
  } finally {
    await listener.end().catch(() => undefined);
    await endPool(pool);
    await old.stop();
  }
});
