import { defineController, NotFoundHttpError, Response } from '@switchboard/http-kernel';
import { view } from '@switchboard/http-kernel/view';
import { defineTypedController, mapPayload } from '@switchboard/payload';
import type { ItemRepository } from './item-repository.js';
import { NewItemSchema } from './new-item-schema.js';

/**
 * The four controllers of `/api/items`; each reads its input, calls the repository and returns the
 * data: the view layer (`ViewListener`) writes it in the format the client accepts among the route's.
 */
export function itemControllers(items: ItemRepository) {
  const find = async (id: number) => {
    const item = await items.find(id);
    if (item === null) throw new NotFoundHttpError(`Item ${id} not found.`);
    return item;
  };
  return {
    list: defineController([], () => items.list(), 'items.list'),

    // `id` is the route schema's output: a positive integer (the route refuses anything else with a 400).
    show: defineController(['id'], (id: number) => find(id), 'items.show'),

    // `item` is typed from the schema and reaches the controller only once valid (400/415/422 otherwise).
    create: defineTypedController(
      [mapPayload('item', { from: 'json', schema: NewItemSchema })],
      async (item) => {
        const created = await items.create(item);
        return view(created, { status: 201, headers: { location: `/api/items/${created.id}` } });
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
