import { JsonResponse } from '@switchboard/http-kernel';
import { defineResponses } from '@switchboard/openapi';
import { defineTypedController, mapPayload } from '@switchboard/payload';
import { RouteCollection } from '@switchboard/router';
import { ConfigError } from '../config.js';
import type { Database } from '../database/open-database.js';
import { insertItems, ItemImportForm, ItemImportResultSchema, readItemLines } from '../items/item-import.js';
import { ITEM_WRITES_RATE_LIMIT } from './items.js';
import type { HostContext, Wiring } from './wiring.js';

/** Largest import file by default (env `ITEM_IMPORT_MAX_BYTES`). */
export const DEFAULT_ITEM_IMPORT_MAX_BYTES = 1024 * 1024;
/** Room for the multipart framing and a few small fields around the file. */
const MULTIPART_OVERHEAD_BYTES = 16 * 1024;

/** The import file limit from `ITEM_IMPORT_MAX_BYTES` (a whole number of bytes), 1 MiB when unset. */
export function itemImportMaxBytes(env: NodeJS.ProcessEnv): number {
  const raw = env['ITEM_IMPORT_MAX_BYTES']?.trim() ?? '';
  if (raw === '') return DEFAULT_ITEM_IMPORT_MAX_BYTES;
  const bytes = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(bytes) || bytes < 1) {
    throw new ConfigError(`ITEM_IMPORT_MAX_BYTES must be a whole number of bytes above 0, got "${raw}".`);
  }
  return bytes;
}

/** The largest request body the server must take in for an import: `serve()`'s `bodyLimit` is at least this. */
export function itemImportBodyBytes(env: NodeJS.ProcessEnv): number {
  return itemImportMaxBytes(env) + MULTIPART_OVERHEAD_BYTES;
}

/**
 * `POST /api/items/import` (admins only): a multipart upload whose `file` part is a JSON Lines
 * file of items; every line is validated, and the items are stored, all or none (`insertItems`), only
 * when all are valid (201 `{ imported }`), else 422 with each bad line's violations. The file is refused
 * with 413 as soon as it grows past its limit, while it streams.
 */
export function wireItemImport(host: Pick<HostContext, 'env'>, database: Database): Wiring {
  const maxFileBytes = itemImportMaxBytes(host.env);
  const importItems = defineTypedController(
    [
      mapPayload('upload', {
        from: 'multipart',
        schema: ItemImportForm,
        maxFileBytes,
        maxBodyBytes: maxFileBytes + MULTIPART_OVERHEAD_BYTES,
        maxFiles: 1,
        maxFields: 4,
      }),
    ],
    async (upload) => new JsonResponse({ imported: await insertItems(database.connection, await readItemLines(upload.file)) }, 201),
    'items.import',
  );
  const routes = new RouteCollection();
  routes.add('items_import', '/api/items/import', {
    methods: 'POST',
    controller: importItems,
    defaults: {
      _is_granted: 'ROLE_ADMIN',
      _rate_limit: ITEM_WRITES_RATE_LIMIT,
      _responses: defineResponses({ 201: ItemImportResultSchema }),
    },
  });
  return { routes };
}
