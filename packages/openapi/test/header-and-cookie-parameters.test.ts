import { Validator } from '@seriousme/openapi-schema-validator';
import { JsonResponse } from '@switchboard/http-kernel';
import { defineTypedController, mapPayload } from '@switchboard/payload';
import { declarationOwner } from '../../../test/kit/index.js';
import { RouteCollection } from '@switchboard/router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openApiRoute, type OpenApiDocument } from '../src/index.js';
import { serveRoutes, type ServedApp } from './support/served-app.js';

const caller = mapPayload('caller', {
  from: 'headers',
  schema: { 'x-tenant': z.string().min(1), 'x-page-size': z.coerce.number().int().max(100).optional() },
});
const session = mapPayload('session', { from: 'cookies', schema: { sid: z.string().min(8) } });
const routes = new RouteCollection().add('me', '/me', {
  methods: ['GET'],
  controller: defineTypedController(
    [caller, session],
    (caller, session) => new JsonResponse({ tenant: caller['x-tenant'], sid: session.sid }),
  ),
});

let app: ServedApp;
beforeAll(async () => {
  routes.add(openApiRoute({ routes, path: '/openapi.json', info: { title: 'Values', version: '1.0.0' } }));
  // The route is served only to be documented: its payload mapping is not under test here.
  app = await serveRoutes(routes, [declarationOwner({ argumentOptions: ['payload'] })]);
});
afterAll(() => app.close());

describe('header and cookie parameters in the OpenAPI document', () => {
  it('lists each mapped header and cookie with in, required and the type from its schema', async () => {
    const document = (await (await fetch(`${app.origin}/openapi.json`)).json()) as OpenApiDocument;
    const operation = document.paths['/me']?.get;
    expect(operation?.parameters).toEqual([
      { name: 'x-tenant', in: 'header', required: true, schema: { type: 'string', minLength: 1 } },
      { name: 'x-page-size', in: 'header', required: false, schema: expect.objectContaining({ type: 'integer', maximum: 100 }) },
      { name: 'sid', in: 'cookie', required: true, schema: { type: 'string', minLength: 8 } },
    ]);
    expect(operation?.responses['400']).toEqual({ $ref: '#/components/responses/BadRequest' });
    expect(await new Validator().validate(document as unknown as Record<string, unknown>)).toEqual({ valid: true });
  });
});
