import type { PgQueryable } from '@switchboard/database';

/** The schema, one step per entry, applied in order; never edit an applied step, add one. */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE items (
     id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
     quantity integer NOT NULL CHECK (quantity >= 0),
     created_at timestamptz NOT NULL DEFAULT now()
   )`,
  // Every item write leaves a change (the event stream's ids) and a notification, whoever wrote it;
  // the newest 1,000 changes are kept for clients that reconnect.
  `CREATE TABLE item_changes (
     id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     kind text NOT NULL CHECK (kind IN ('created', 'deleted')),
     item jsonb NOT NULL
   );
   CREATE FUNCTION record_item_change() RETURNS trigger LANGUAGE plpgsql AS $$
   DECLARE change_id integer;
   BEGIN
     IF TG_OP = 'INSERT' THEN
       INSERT INTO item_changes (kind, item) VALUES ('created', to_jsonb(NEW)) RETURNING id INTO change_id;
     ELSE
       INSERT INTO item_changes (kind, item) VALUES ('deleted', to_jsonb(OLD)) RETURNING id INTO change_id;
     END IF;
     DELETE FROM item_changes WHERE id <= change_id - 1000;
     PERFORM pg_notify('item_changes', change_id::text);
     RETURN NULL;
   END $$;
   CREATE TRIGGER items_changed AFTER INSERT OR DELETE ON items FOR EACH ROW EXECUTE FUNCTION record_item_change()`,
  // The changes of a write are recorded once per statement, not per row: a per-row prune made a
  // bulk insert quadratic. One statement's changes are in item order, and it sends one notification.
  `DROP TRIGGER items_changed ON items;
   DROP FUNCTION record_item_change();
   CREATE FUNCTION record_item_changes() RETURNS trigger LANGUAGE plpgsql AS $$
   DECLARE newest integer;
   BEGIN
     IF TG_OP = 'INSERT' THEN
       WITH recorded AS (
         INSERT INTO item_changes (kind, item) SELECT 'created', to_jsonb(row) FROM created_items row ORDER BY row.id RETURNING id
       ) SELECT max(id) INTO newest FROM recorded;
     ELSE
       WITH recorded AS (
         INSERT INTO item_changes (kind, item) SELECT 'deleted', to_jsonb(row) FROM deleted_items row ORDER BY row.id RETURNING id
       ) SELECT max(id) INTO newest FROM recorded;
     END IF;
     IF newest IS NOT NULL THEN
       DELETE FROM item_changes WHERE id <= newest - 1000;
       PERFORM pg_notify('item_changes', newest::text);
     END IF;
     RETURN NULL;
   END $$;
   CREATE TRIGGER items_created AFTER INSERT ON items REFERENCING NEW TABLE AS created_items
     FOR EACH STATEMENT EXECUTE FUNCTION record_item_changes();
   CREATE TRIGGER items_deleted AFTER DELETE ON items REFERENCING OLD TABLE AS deleted_items
     FOR EACH STATEMENT EXECUTE FUNCTION record_item_changes()`,
  // An import stages its items in short statements, hidden from readers while its import is
  // pending, then publishes them all at once by deleting the pending row (publish_item_import):
  // readers see all of an import or none, and other queries run between its statements.
  // Staged rows leave no change until published; publishing records the import's newest 1,000
  // items, as many changes as are kept. A change's item is the row without its import.
  `CREATE TABLE pending_item_imports (
     id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     started_at timestamptz NOT NULL DEFAULT now()
   );
   ALTER TABLE items ADD COLUMN import_id integer;
   CREATE INDEX items_by_import ON items (import_id, id) WHERE import_id IS NOT NULL;
   CREATE VIEW visible_items AS
     SELECT id, name, quantity, created_at FROM items
     WHERE import_id IS NULL OR import_id NOT IN (SELECT id FROM pending_item_imports);
   CREATE FUNCTION announce_item_changes(newest integer) RETURNS void LANGUAGE plpgsql AS $$
   BEGIN
     IF newest IS NOT NULL THEN
       DELETE FROM item_changes WHERE id <= newest - 1000;
       PERFORM pg_notify('item_changes', newest::text);
     END IF;
   END $$;
   CREATE OR REPLACE FUNCTION record_item_changes() RETURNS trigger LANGUAGE plpgsql AS $$
   DECLARE newest integer;
   BEGIN
     IF TG_OP = 'INSERT' THEN
       WITH recorded AS (
         INSERT INTO item_changes (kind, item)
         SELECT 'created', to_jsonb(row) - 'import_id' FROM created_items row WHERE row.import_id IS NULL ORDER BY row.id RETURNING id
       ) SELECT max(id) INTO newest FROM recorded;
     ELSE
       WITH recorded AS (
         INSERT INTO item_changes (kind, item)
         SELECT 'deleted', to_jsonb(row) - 'import_id' FROM deleted_items row
         WHERE row.import_id IS NULL OR row.import_id NOT IN (SELECT id FROM pending_item_imports) ORDER BY row.id RETURNING id
       ) SELECT max(id) INTO newest FROM recorded;
     END IF;
     PERFORM announce_item_changes(newest);
     RETURN NULL;
   END $$;
   CREATE FUNCTION publish_item_import(pending integer) RETURNS void LANGUAGE plpgsql AS $$
   DECLARE newest integer;
   BEGIN
     DELETE FROM pending_item_imports WHERE id = pending;
     IF NOT FOUND THEN
       RAISE EXCEPTION 'The item import % is not pending.', pending;
     END IF;
     WITH recorded AS (
       INSERT INTO item_changes (kind, item)
       SELECT 'created', to_jsonb(row) - 'import_id'
       FROM (SELECT * FROM items WHERE import_id = pending ORDER BY id DESC LIMIT 1000) row ORDER BY row.id RETURNING id
     ) SELECT max(id) INTO newest FROM recorded;
     PERFORM announce_item_changes(newest);
   END $$`,
];

/** Held (per transaction) while the schema is checked or changed: hosts starting together migrate one at a time. */
const MIGRATION_LOCK = 'SELECT pg_advisory_xact_lock(73620451)';

/**
 * Brings the schema up to date at start. Each step and its bookkeeping row are sent as one
 * multi-statement query, which PostgreSQL runs as a single transaction: a step is applied whole or not at all.
 * Every transaction here takes the migration lock first, so several hosts (cluster workers,
 * instances behind a balancer) starting on a new database do not apply a step twice: the
 * second one finds it applied once the first one commits.
 */
export async function migrate(db: PgQueryable): Promise<number> {
  await db.query(
    `${MIGRATION_LOCK}; CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
  );
  const current = await schemaVersion(db);
  let applied = 0;
  for (let version = current + 1; version <= MIGRATIONS.length; version++) {
    try {
      await db.query(`${MIGRATION_LOCK}; ${MIGRATIONS[version - 1]!}; INSERT INTO schema_migrations (version) VALUES (${version})`);
      applied++;
    } catch (error) {
      // Another host applied it while this one waited for the lock.
      if ((await schemaVersion(db)) < version) throw error;
    }
  }
  return applied;
}

async function schemaVersion(db: PgQueryable): Promise<number> {
  const { rows } = await db.query<{ version: number }>('SELECT coalesce(max(version), 0) AS version FROM schema_migrations');
  return rows[0]?.version ?? 0;
}
