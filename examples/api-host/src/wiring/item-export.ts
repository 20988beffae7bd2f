import { defineResponses } from '@switchboard/openapi';
import { RouteCollection } from '@switchboard/router';
import { IS_AUTHENTICATED } from '@switchboard/security';
import type { Database } from '../database/open-database.js';
import { itemExportController } from '../items/item-export.js';
import { ItemRepository } from '../items/item-repository.js';
import { ItemSchema } from '../items/item-schema.js';
import type { Wiring } from './wiring.js';

const DOWNLOAD_HEADERS = {
  'Content-Disposition': { description: '`attachment; filename=items.jsonl`.', required: true },
  ETag: { description: 'A hash of the export, for `If-None-Match` and `If-Range`.', required: true },
  'Accept-Ranges': { description: '`bytes`: parts of the export can be asked for with `Range`.' },
} as const;

/**
 * `GET /api/items/export` for authenticated users (`IS_AUTHENTICATED`): the items as a JSON Lines
 * download, with its ETag; `Range`, `If-Range` and the conditional headers are answered by the
 * Range listener (`wireRange`).
 */
export function wireItemExport(database: Database): Wiring {
  const routes = new RouteCollection();
  routes.add('items_export', '/api/items/export', {
    methods: 'GET',
    controller: itemExportController(new ItemRepository(database.connection)),
    defaults: {
      _is_granted: IS_AUTHENTICATED,
      _responses: defineResponses({
        200: {
          schema: ItemSchema,
          contentType: 'application/jsonl',
          description: 'Every item, one JSON object a line (JSON Lines), in id order.',
          headers: DOWNLOAD_HEADERS,
        },
        304: { description: 'The copy named by `If-None-Match` is current: no body.' },
        206: {
          description: 'The requested byte range(s) of the export (`Range`), as for any response of known length.',
          contentType: 'application/jsonl',
          headers: { 'Content-Range': { description: 'Which bytes of the export this is.', required: true } },
        },
      }),
    },
  });
  return { routes };
}
