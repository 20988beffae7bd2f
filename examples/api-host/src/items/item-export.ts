import { createHash } from 'node:crypto';
import { contentDisposition } from '@switchboard/files';
import { defineController, Response } from '@switchboard/http-kernel';
import type { Item } from './item.js';
import type { ItemRepository } from './item-repository.js';

/** The most items one export holds; the export is built in memory. */
export const ITEMS_EXPORT_LIMIT = 10_000;

const ITEMS_EXPORT_TYPE = 'application/jsonl; charset=utf-8';

/**
 * `GET /api/items/export`: every item as JSON Lines (one `{"id","name","quantity","createdAt"}`
 * object a line, in id order), downloaded as `items.jsonl` — the format `POST /api/items/import`
 * reads. The body is text of known length, so the Range listener serves parts of it and answers
 * conditional requests. Its strong ETag is a hash of the export itself: any item created or deleted
 * changes it. There is no Last-Modified: a deletion leaves no date behind, so a date could claim
 * "unchanged" for an export that lost an item.
 */
export function itemExportController(items: ItemRepository) {
  return defineController(
    [],
    async (): Promise<Response> => {
      const lines = (await items.list(ITEMS_EXPORT_LIMIT)).map(exportLine);
      const body = lines.join('');
      return new Response(body, 200, {
        'content-type': ITEMS_EXPORT_TYPE,
        'content-disposition': contentDisposition('attachment', 'items.jsonl'),
        etag: `"${createHash('sha256').update(body).digest('base64url')}"`,
      });
    },
    'items.export',
  );
}

/** One line of the export: exactly these four members, whatever else a row carries. */
function exportLine({ id, name, quantity, createdAt }: Item): string {
  return `${JSON.stringify({ id, name, quantity, createdAt })}\n`;
}
