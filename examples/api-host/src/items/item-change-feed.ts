import type { PgQueryable } from '@switchboard/database';
import type { Item } from './item.js';

/** An item created or deleted, with the id of the change (the event stream's event id). */
export interface ItemChange {
  readonly id: number;
  readonly kind: 'created' | 'deleted';
  readonly item: Item;
}

interface ChangeRow {
  id: number;
  kind: 'created' | 'deleted';
  item: { id: number; name: string; quantity: number; created_at: string };
}

/** How many changes one read returns, and how many a resuming client can catch up on at most. */
export const CHANGES_PER_READ = 1_000;

/**
 * The item changes of this process's streams. The database records every write in `item_changes`
 * and notifies the `item_changes` channel (a trigger: every worker's writes, and any other
 * writer's); the feed reads what is new once per notification and hands it to every subscriber.
 */
export class ItemChangeFeed {
  readonly #subscribers = new Set<(change: ItemChange) => void>();
  #latest = 0;
  #reading: Promise<void> = Promise.resolve();

  constructor(private readonly db: PgQueryable) {}

  /** The id of the newest change seen. */
  get latest(): number {
    return this.#latest;
  }

  async start(listen: (channel: string, onNotification: () => void) => Promise<() => Promise<void>>): Promise<() => Promise<void>> {
    const { rows } = await this.db.query<{ latest: number | null }>('SELECT max(id) AS latest FROM item_changes');
    this.#latest = rows[0]?.latest ?? 0;
    return listen('item_changes', () => {
      // One read at a time, in order: notifications can arrive faster than reads end.
      this.#reading = this.#reading.then(() => this.#readNew()).catch(() => undefined);
    });
  }

  /** How many subscribers the feed hands changes to now. */
  get subscribers(): number {
    return this.#subscribers.size;
  }

  subscribe(onChange: (change: ItemChange) => void): () => void {
    this.#subscribers.add(onChange);
    return () => this.#subscribers.delete(onChange);
  }

  /** The changes after `id`, or `null` when some of them are no longer kept (the client must reload). */
  async since(id: number): Promise<ItemChange[] | null> {
    const { rows: oldest } = await this.db.query<{ id: number | null }>('SELECT min(id) AS id FROM item_changes');
    const first = oldest[0]?.id ?? null;
    if (first !== null && id < first - 1) return null;
    return this.#after(id);
  }

  /** Reads until nothing is new: one notification may stand for a statement of many changes. */
  async #readNew(): Promise<void> {
    for (;;) {
      const changes = await this.#after(this.#latest);
      for (const change of changes) {
        this.#latest = change.id;
        for (const subscriber of this.#subscribers) subscriber(change);
      }
      if (changes.length < CHANGES_PER_READ) return;
    }
  }

  async #after(id: number): Promise<ItemChange[]> {
    const { rows } = await this.db.query<ChangeRow>('SELECT id, kind, item FROM item_changes WHERE id > $1 ORDER BY id LIMIT $2', [
      id,
      CHANGES_PER_READ,
    ]);
    return rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      item: { id: row.item.id, name: row.item.name, quantity: row.item.quantity, createdAt: new Date(row.item.created_at).toISOString() },
    }));
  }
}
