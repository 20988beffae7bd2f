import { z } from 'zod';

/**
 * An item as the API answers it (`GET /api/items`, `GET /api/items/:id`, `POST /api/items`):
 * declared as the routes' response schema, so it is documented in the OpenAPI document as the
 * `Item` component, and any other member a row might carry is dropped before it is sent.
 */
export const ItemSchema = z
  .object({
    id: z.number().int().min(1),
    name: z.string(),
    quantity: z.number().int().min(0),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Item' });
