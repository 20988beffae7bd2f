import type { PgQueryable } from '@switchboard/database';

/** The schema, one step per entry, applied in order; never edit an applied step, add one. */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE items (
     id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
     quantity integer NOT NULL CHECK (quantity >= 0),
     created_at timestamptz NOT NULL DEFAULT now()
   )`,
];

/**
 * Brings the schema up to date at start. Each step and its bookkeeping row are sent as one
 * multi-statement query, which PostgreSQL runs as a single transaction: a step is applied whole or not at all.
 */
export async function migrate(db: PgQueryable): Promise<number> {
  await db.query(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
  );
  const { rows } = await db.query<{ version: number }>('SELECT coalesce(max(version), 0) AS version FROM schema_migrations');
  const current = rows[0]?.version ?? 0;
  for (let version = current + 1; version <= MIGRATIONS.length; version++) {
    await db.query(`${MIGRATIONS[version - 1]!}; INSERT INTO schema_migrations (version) VALUES (${version})`);
  }
  return MIGRATIONS.length - current;
}
