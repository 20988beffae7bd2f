import { setImmediate as nextTurn } from 'node:timers/promises';
import type { PgQueryable } from '@switchboard/database';
import { UnprocessableEntityHttpError } from '@switchboard/http-kernel';
import type { Violation } from '@switchboard/payload';
import { z } from 'zod';
import type { NewItem } from './item.js';
import { NewItemSchema } from './new-item-schema.js';

/** The upload of `POST /api/items/import`: a JSON Lines file in the part named `file`. */
export const ItemImportForm = z.object({ file: z.file() });

/** What a successful import answers. */
export const ItemImportResultSchema = z.object({ imported: z.number().int().min(1) }).meta({ id: 'ItemImportResult' });

/**
 * Rows per statement of an import, and lines validated between two turns of the event loop: the
 * embedded database runs each statement on the event loop, so a statement's size bounds how long
 * other requests wait for it (and every statement of an import touches at most this many rows).
 */
export const IMPORT_BATCH_ROWS = 1_000;

/** Most violations listed in one 422: a file of bad lines gets a useful answer, not a huge one. */
const MAX_VIOLATIONS = 100;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The items of a JSON Lines file (one JSON object a line, as `GET /api/items/export` writes them;
 * `id` and `createdAt` members are ignored, blank lines skipped), each validated by `NewItemSchema`.
 * Any bad line makes the whole file a 422 whose `violations` say where: `path` is
 * `/lines/<line>/<member>`, lines counted from 1 as editors show them (`/lines/3` for a line that
 * is not a JSON object).
 */
export async function readItemLines(file: File): Promise<NewItem[]> {
  let text: string;
  try {
    text = utf8.decode(await file.arrayBuffer());
  } catch {
    throw refused([{ path: '/file', message: 'The file is not UTF-8 text.' }]);
  }
  const items: NewItem[] = [];
  const violations: Violation[] = [];
  const lines = text.split('\n');
  for (let index = 0; index < lines.length && violations.length < MAX_VIOLATIONS; index++) {
    if (index > 0 && index % IMPORT_BATCH_ROWS === 0) await nextTurn();
    const line = lines[index]!.trim();
    if (line === '') continue;
    const where = `/lines/${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      violations.push({ path: where, message: 'Not valid JSON.' });
      continue;
    }
    const result = NewItemSchema.safeParse(value);
    if (result.success) items.push(result.data);
    else
      for (const issue of result.error.issues)
        violations.push({ path: `${where}/${issue.path.join('/')}`.replace(/\/$/, ''), message: issue.message });
  }
  if (violations.length > 0) throw refused(violations.slice(0, MAX_VIOLATIONS));
  if (items.length === 0) throw refused([{ path: '/file', message: 'The file holds no items.' }]);
  return items;
}

/**
 * Inserts the items all or none, without holding the database: they are staged under a new
 * pending import in statements of `IMPORT_BATCH_ROWS` rows, each its own turn of the database (on
 * PGlite, other requests' queries run between them), hidden from readers (`visible_items`) until
 * one short statement publishes the import. On a failure the staged rows are removed, in batches
 * too (and those of an import abandoned by a crash, by the next import). Resolves with the count.
 */
export async function insertItems(db: PgQueryable, items: readonly NewItem[]): Promise<number> {
  await discardAbandonedImports(db);
  const { rows } = await db.query<{ id: number }>('INSERT INTO pending_item_imports DEFAULT VALUES RETURNING id');
  const pending = rows[0]!.id;
  try {
    for (let start = 0; start < items.length; start += IMPORT_BATCH_ROWS) {
      await nextTurn();
      const batch = items.slice(start, start + IMPORT_BATCH_ROWS);
      await db.query(
        'INSERT INTO items (name, quantity, import_id) SELECT name, quantity, $3::integer FROM unnest($1::text[], $2::integer[]) AS batch (name, quantity)',
        [batch.map((item) => item.name), batch.map((item) => item.quantity), pending],
      );
    }
    await db.query('SELECT publish_item_import($1::integer)', [pending]);
  } catch (error) {
    await discardImport(db, pending).catch(() => undefined);
    throw error;
  }
  return items.length;
}

/**
 * Removes the imports pending for more than an hour: their process stopped midway (a crash), so
 * their rows would stay hidden for good. No import of the largest file takes more than seconds.
 */
async function discardAbandonedImports(db: PgQueryable): Promise<void> {
  const { rows } = await db.query<{ id: number }>(`SELECT id FROM pending_item_imports WHERE started_at < now() - interval '1 hour'`);
  for (const { id } of rows) await discardImport(db, id);
}

/** Removes the staged rows of an import that is still pending (never a published one), then its pending row. */
async function discardImport(db: PgQueryable, pending: number): Promise<void> {
  for (;;) {
    const removed = await db.query(
      `DELETE FROM items WHERE id IN (
         SELECT id FROM items WHERE import_id = $1 AND $1 IN (SELECT id FROM pending_item_imports) LIMIT ${IMPORT_BATCH_ROWS}
       )`,
      [pending],
    );
    if ((removed.rowCount ?? 0) === 0) break;
    await nextTurn();
  }
  await db.query('DELETE FROM pending_item_imports WHERE id = $1', [pending]);
}

function refused(violations: Violation[]): UnprocessableEntityHttpError {
  const first = violations[0]!;
  return new UnprocessableEntityHttpError(`The import file is invalid: ${first.path}: ${first.message}`, { details: { violations } });
}
