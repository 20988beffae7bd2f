import { BadRequestHttpError, defineController, JsonResponse } from '@switchboard/http-kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RouteCollection, Router, RouterListener } from '../src/index.js';
import { serveKernel, testKernel, type ServedKernel, type TestKernel } from '../../../test/kit/index.js';

const show = defineController(
  ['id', 'page'],
  (id: number, page: number) => new JsonResponse({ id, page, types: [typeof id, typeof page] }),
);
const routes = new RouteCollection().add('item', '/items/:id{/:page}', {
  requirements: { id: '[0-9a-z]+' },
  params: { id: z.coerce.number().int().positive(), page: z.coerce.number().int().min(1) },
  defaults: { page: '1' },
  controller: show,
});

describe('parameter schemas over a real server', () => {
  let app: TestKernel;
  let server: ServedKernel;

  beforeAll(async () => {
    app = testKernel({ subscribers: [new RouterListener(new Router(routes))] });
    server = await serveKernel(app.kernel);
  });
  afterAll(() => server.close());

  it('gives the controller the schemas’ outputs, the default validated too', async () => {
    const response = await fetch(`${server.origin}/items/7`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: 7, page: 1, types: ['number', 'number'] });
    expect(await (await fetch(`${server.origin}/items/7/3`)).json()).toEqual({ id: 7, page: 3, types: ['number', 'number'] });
  });

  it('leaves matching to the requirements: a value they refuse is no route (404)', async () => {
    expect((await fetch(`${server.origin}/items/7-x`)).status).toBe(404);
  });

  it('answers 400 naming every refused value when a matched value fails its schema', async () => {
    const before = app.errors.length;
    const response = await fetch(`${server.origin}/items/0/0`);
    expect(response.status).toBe(400);
    const error = app.errors[before];
    expect(error).toBeInstanceOf(BadRequestHttpError);
    const violations = (error as BadRequestHttpError).details['violations'] as { path: string; message: string }[];
    expect(violations.map((violation) => violation.path)).toEqual(['/params/id', '/params/page']);
    expect((error as Error).message).toContain('The parameters of route "item" are invalid: /params/id:');
    expect((await fetch(`${server.origin}/items/abc`)).status).toBe(400);
  });
});
