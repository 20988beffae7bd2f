import { defineController, JsonResponse, NotFoundHttpError, Response } from '@switchboard/http-kernel';
import { defineTypedController, mapPayload } from '@switchboard/payload';
import type { ItemRepository } from './item-repository.js';
import { NewItemSchema } from './new-item-schema.js';

/** The four controllers of `/api/items`; each reads its input, calls the repository, answers JSON. */
export function itemControllers(items: ItemRepository) {
  const find = async (id: number) => {
    const item = await items.find(id);
    if (item === null) throw new NotFoundHttpError(`Item ${id} not found.`);
    return item;
  };
  return {
    list: defineController([], async () => new JsonResponse(await items.list()), 'items.list'),

    // `id` is the route schema's output: a positive integer (the route refuses anything else with a 400).
    show: defineController(['id'], async (id: number) => new JsonResponse(await find(id)), 'items.show'),

    // `item` is typed from the schema and reaches the controller only once valid (400/415/422 otherwise).
    create: defineTypedController(
      [mapPayload('item', { from: 'json', schema: NewItemSchema })],
      async (item) => {
        const created = await items.create(item);
        return new JsonResponse(created, 201, { location: `/api/items/${created.id}` });
      },
      'items.create',
    ),

    delete: defineController(
      ['id'],
      async (id: number) => {
        if (!(await items.delete(id))) throw new NotFoundHttpError(`Item ${id} not found.`);
        return new Response(null, 204);
      },
      'items.delete',
    ),
  };
}
