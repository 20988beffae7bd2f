import { defineResponses } from '@switchboard/openapi';
import { defineRateLimit } from '@switchboard/rate-limit';
import { RouteCollection } from '@switchboard/router';
import { IS_AUTHENTICATED } from '@switchboard/security';
import type { Database } from '../database/open-database.js';
import { itemExportCache, itemExportController } from '../items/item-export.js';
import { ItemRepository } from '../items/item-repository.js';
import { ItemSchema } from '../items/item-schema.js';
import type { Wiring } from './wiring.js';

const DOWNLOAD_HEADERS = {
  'Content-Disposition': { description: '`attachment; filename=items.jsonl`.', required: true },
  ETag: { description: 'A weak tag of which items exist, for `If-None-Match`.', required: true },
} as const;

/**
 * Exports per user: bursts of 6, then one every 10 s (`RouteRateLimitListener`, keyed by the
 * authenticated user). An export reads every item; a 304 costs one query and counts too.
 */
export const ITEM_EXPORTS_RATE_LIMIT = defineRateLimit({
  policy: 'token_bucket',
  limit: 6,
  intervalMs: 60_000,
  by: 'user',
  id: 'item_exports',
});

/**
 * `GET /api/items/export` for authenticated users (`IS_AUTHENTICATED`): the items as a streamed
 * JSON Lines download, limited per user (`_rate_limit`), with a weak ETag answered 304 before any
 * item is read (`_cache`).
 */
export function wireItemExport(database: Database): Wiring {
  const items = new ItemRepository(database.connection);
  const routes = new RouteCollection();
  routes.add('items_export', '/api/items/export', {
    methods: 'GET',
    controller: itemExportController(items),
    defaults: {
      _is_granted: IS_AUTHENTICATED,
      _rate_limit: ITEM_EXPORTS_RATE_LIMIT,
      _cache: itemExportCache(items),
      _responses: defineResponses({
        200: {
          schema: ItemSchema,
          contentType: 'application/jsonl',
          description: 'Every item, one JSON object a line (JSON Lines), in id order.',
          headers: DOWNLOAD_HEADERS,
        },
        304: { description: 'The copy named by `If-None-Match` is current: no body.' },
      }),
    },
  });
  return { routes };
}
