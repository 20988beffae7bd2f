import type { PgQueryable } from '@switchboard/database';
import type { Item, NewItem } from './item.js';

interface ItemRow {
  id: number;
  name: string;
  quantity: number;
  created_at: Date | string;
}

const COLUMNS = 'id, name, quantity, created_at';

/**
 * Items in PostgreSQL (or PGlite); every write is one statement, so nothing is half-written. Reads
 * and deletes see `visible_items`: not the items of an import still being staged (`insertItems`).
 */
export class ItemRepository {
  constructor(private readonly db: PgQueryable) {}

  async list(limit = 100): Promise<Item[]> {
    const result = await this.db.query<ItemRow>(`SELECT ${COLUMNS} FROM visible_items ORDER BY id LIMIT $1`, [limit]);
    return result.rows.map(toItem);
  }

  /** Up to `limit` items with ids above `afterId`, in id order: a page of a walk through every item. */
  async listAfter(afterId: number, limit: number): Promise<Item[]> {
    const result = await this.db.query<ItemRow>(`SELECT ${COLUMNS} FROM visible_items WHERE id > $1 ORDER BY id LIMIT $2`, [
      afterId,
      limit,
    ]);
    return result.rows.map(toItem);
  }

  /**
   * A digest of which items exist. Items never change once created, so the same ids mean the same
   * items: a version of the whole list, read without reading the items.
   */
  async version(): Promise<string> {
    const result = await this.db.query<{ version: string }>(
      `SELECT count(*) || '-' || md5(coalesce(string_agg(id::text, ',' ORDER BY id), '')) AS version FROM visible_items`,
    );
    return result.rows[0]!.version;
  }

  async find(id: number): Promise<Item | null> {
    const result = await this.db.query<ItemRow>(`SELECT ${COLUMNS} FROM visible_items WHERE id = $1`, [id]);
    return result.rows[0] === undefined ? null : toItem(result.rows[0]);
  }

  async create(item: NewItem): Promise<Item> {
    const result = await this.db.query<ItemRow>(`INSERT INTO items (name, quantity) VALUES ($1, $2) RETURNING ${COLUMNS}`, [
      item.name,
      item.quantity,
    ]);
    return toItem(result.rows[0]!);
  }

  /** `true` when an item was deleted. */
  async delete(id: number): Promise<boolean> {
    const result = await this.db.query(`DELETE FROM items WHERE id = $1 AND id IN (SELECT id FROM visible_items WHERE id = $1)`, [id]);
    return (result.rowCount ?? 0) > 0;
  }
}

function toItem(row: ItemRow): Item {
  return {
    id: row.id,
    name: row.name,
    quantity: row.quantity,
    createdAt: (row.created_at instanceof Date ? row.created_at : new Date(row.created_at)).toISOString(),
  };
}
