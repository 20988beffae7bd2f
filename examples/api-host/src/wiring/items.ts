import { ViewListener } from '@switchboard/http-kernel/view';
import { defineRateLimit } from '@switchboard/rate-limit';
import { defineResponses } from '@switchboard/openapi';
import { RouteCollection } from '@switchboard/router';
import { PUBLIC_ACCESS } from '@switchboard/security';
import { z } from 'zod';
import type { Database } from '../database/open-database.js';
import { itemCache, itemListCache } from '../items/item-cache.js';
import { itemControllers } from '../items/item-controllers.js';
import { ItemRepository } from '../items/item-repository.js';
import { ItemSchema } from '../items/item-schema.js';
import type { Wiring } from './wiring.js';

const LOCATION = { description: 'The new item’s URL.', required: true } as const;

/** Up to nine digits is an item's path (a 32-bit id, never a database error); anything else is no route (404). */
const ITEM_ID = '[0-9]{1,9}';

/** Ids are positive integers: a path with `0` matches the route, and the schema refuses it (400, `/params/id`). */
const ITEM_PARAMS = { id: z.coerce.number().int().min(1) };

/** Item writes per user: bursts of 60, then one a second (`RouteRateLimitListener`, keyed by the authenticated user). */
export const ITEM_WRITES_RATE_LIMIT = defineRateLimit({
  policy: 'token_bucket',
  limit: 60,
  intervalMs: 60_000,
  by: 'user',
  id: 'item_writes',
});

/** Who may create items: the host's users, or a provider's token with scope `items:write`. */
const ITEM_WRITERS = ['ROLE_USER', 'SCOPE_items:write'];
/** Who may delete items: the host's admins, or a provider's token with scope `items:admin`. */
const ITEM_ADMINS = ['ROLE_ADMIN', 'SCOPE_items:admin'];

/**
 * The demo business API, `/api/items`: anyone lists and reads; creating needs a user
 * (`ROLE_USER`) or scope `items:write`, deleting the admin role or scope `items:admin` — enforced by the security package's
 * authorization step from the `_is_granted` route default. The new item is mapped and validated by
 * the payload step (`mapPayload`); an item's page declares its HTTP caching (`_cache`), item writes
 * their rate limit per user (`_rate_limit`). Each route declares its answers (`_responses`): they
 * are documented, and undeclared members are dropped. Controllers return data, written by the view
 * layer as JSON, or, for the list, as NDJSON when the client asks for it (`_formats`); a client that
 * accepts neither gets a 406.
 */
export function wireItems(database: Database): Wiring {
  const repository = new ItemRepository(database.connection);
  const controllers = itemControllers(repository);
  const routes = new RouteCollection();
  routes.add('items_list', '/api/items', {
    methods: 'GET',
    controller: controllers.list,
    defaults: {
      _is_granted: PUBLIC_ACCESS,
      _formats: ['json', 'ndjson'],
      _cache: itemListCache(repository),
      _responses: defineResponses({ 200: z.array(ItemSchema) }),
    },
  });
  routes.add('items_create', '/api/items', {
    methods: 'POST',
    controller: controllers.create,
    defaults: {
      _is_granted: ITEM_WRITERS,
      _rate_limit: ITEM_WRITES_RATE_LIMIT,
      _responses: defineResponses({ 201: { schema: ItemSchema, headers: { Location: LOCATION } } }),
    },
  });
  routes.add('items_show', '/api/items/:id', {
    methods: 'GET',
    controller: controllers.show,
    requirements: { id: ITEM_ID },
    params: ITEM_PARAMS,
    defaults: { _is_granted: PUBLIC_ACCESS, _cache: itemCache(repository), _responses: defineResponses({ 200: ItemSchema }) },
  });
  routes.add('items_delete', '/api/items/:id', {
    methods: 'DELETE',
    controller: controllers.delete,
    requirements: { id: ITEM_ID },
    params: ITEM_PARAMS,
    defaults: { _is_granted: ITEM_ADMINS, _responses: defineResponses({ 204: { description: 'Deleted.' } }) },
  });
  return { routes, subscribers: [new ViewListener()] };
}
