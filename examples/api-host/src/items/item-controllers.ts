import { defineController, JsonResponse, NotFoundHttpError, Response, type Request } from '@switchboard/http-kernel';
import type { ItemRepository } from './item-repository.js';
import { readNewItem } from './read-new-item.js';

/** The four controllers of `/api/items`; each reads its input, calls the repository, answers JSON. */
export function itemControllers(items: ItemRepository) {
  const find = async (id: string) => {
    const item = await items.find(Number(id));
    if (item === null) throw new NotFoundHttpError(`Item ${id} not found.`);
    return item;
  };
  return {
    list: defineController([], async () => new JsonResponse(await items.list()), 'items.list'),

    show: defineController(['id'], async (id: string) => new JsonResponse(await find(id)), 'items.show'),

    create: defineController(
      ['request'],
      async (request: Request) => {
        const item = await items.create(await readNewItem(request));
        return new JsonResponse(item, 201, { location: `/api/items/${item.id}` });
      },
      'items.create',
    ),

    delete: defineController(
      ['id'],
      async (id: string) => {
        if (!(await items.delete(Number(id)))) throw new NotFoundHttpError(`Item ${id} not found.`);
        return new Response(null, 204);
      },
      'items.delete',
    ),
  };
}
