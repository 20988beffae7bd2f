/**
 * Migrations when several hosts start together on a new database (the workers of `WORKERS=N`,
 * instances behind a balancer): each step is applied once, and no host fails its start.
 */
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../packages/database/test/support/database-servers.js';
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
    await Promise.all(pools.map((pool) => pool.end()));
  }
});
