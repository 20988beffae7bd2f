import { defineCache, type CacheOptions } from '@switchboard/http-cache';
import type { ItemRepository } from './item-repository.js';

/**
 * The `_cache` of `GET /api/items/:id`: shared caches may keep an item 30 s and serve it stale 30 s
 * more while revalidating. Items never change once created, so id and creation time make the tag;
 * it is read from the database so that a deleted item gets its 404, never a 304.
 */
export function itemCache(items: ItemRepository): CacheOptions {
  return defineCache({
    public: true,
    maxAgeSeconds: 30,
    staleWhileRevalidateSeconds: 30,
    vary: ['Accept'],
    etag: async (_request, [id]) => {
      const item = await items.find(Number(id));
      return item === null ? null : `item-${item.id}-${Date.parse(item.createdAt)}`;
    },
  });
}

/**
 * The list's validator: which items exist (`ItemRepository.version`), so a client revalidates its
 * copy with `If-None-Match` for one query instead of the list. Strong: the bytes follow from it.
 */
export function itemListCache(items: ItemRepository): CacheOptions {
  return defineCache({ etag: async () => `items-${await items.version()}` });
}
