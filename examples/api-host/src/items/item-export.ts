import { contentDisposition } from '@switchboard/files';
import { defineCache, type CacheOptions } from '@switchboard/http-cache';
import { defineController, Response } from '@switchboard/http-kernel';
import type { Item } from './item.js';
import type { ItemRepository } from './item-repository.js';

/** Items read per query of an export: each query, and each piece of the body, stays small. */
export const ITEMS_EXPORT_PAGE = 1_000;

const ITEMS_EXPORT_TYPE = 'application/jsonl; charset=utf-8';

/**
 * `GET /api/items/export`: every item as JSON Lines (one `{"id","name","quantity","createdAt"}`
 * object a line, in id order), downloaded as `items.jsonl` — the format `POST /api/items/import`
 * reads. The body is streamed, `ITEMS_EXPORT_PAGE` items per query, as the client reads it: no
 * limit on the number of items, and the event loop is free between pages. A streamed body has no
 * known length, so it has no byte ranges (`Accept-Ranges: none`).
 */
export function itemExportController(items: ItemRepository) {
  return defineController(
    [],
    (): Response =>
      new Response(exportLines(items), 200, {
        'content-type': ITEMS_EXPORT_TYPE,
        'content-disposition': contentDisposition('attachment', 'items.jsonl'),
        'accept-ranges': 'none',
      }),
    'items.export',
  );
}

/**
 * The export's `_cache`: a weak ETag from which items exist (`ItemRepository.version`), checked
 * before the controller runs, so a current copy costs one query and a 304. Weak, because the pages
 * are read one after another: an item created during a download may be in it.
 */
export function itemExportCache(items: ItemRepository): CacheOptions {
  return defineCache({ etag: async () => `W/"items-${await items.version()}"` });
}

async function* exportLines(items: ItemRepository): AsyncGenerator<string> {
  let after = 0;
  for (;;) {
    const page = await items.listAfter(after, ITEMS_EXPORT_PAGE);
    if (page.length === 0) return;
    yield page.map(exportLine).join('');
    if (page.length < ITEMS_EXPORT_PAGE) return;
    after = page.at(-1)!.id;
  }
}

/** One line of the export: exactly these four members, whatever else a row carries. */
function exportLine({ id, name, quantity, createdAt }: Item): string {
  return `${JSON.stringify({ id, name, quantity, createdAt })}\n`;
}
