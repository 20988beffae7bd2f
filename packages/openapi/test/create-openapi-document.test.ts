import { Validator } from '@seriousme/openapi-schema-validator';
import { httpCacheOpenApi } from '@switchboard/http-cache/openapi';
import { defineController, JsonResponse } from '@switchboard/http-kernel';
import { defineTypedController, mapPayload } from '@switchboard/payload';
import { rateLimitOpenApi } from '@switchboard/rate-limit/openapi';
import { Route, RouteCollection } from '@switchboard/router';
import { securityOpenApi } from '@switchboard/security/openapi';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Encoder } from '@switchboard/http-kernel/view';
import {
  createOpenApiDocument,
  defineResponses,
  type OpenApiDocument,
  type Operation,
  type ResponseObject,
  SchemaConversionError,
} from '../src/index.js';
import { FIREWALLS, sampleOptions, sampleRoutes } from './support/sample-app.js';

const document = createOpenApiDocument(sampleRoutes(), sampleOptions);
const operation = (path: string, method: 'get' | 'post' | 'delete' | 'head'): Operation => {
  const found = document.paths[path]?.[method];
  if (found === undefined) throw new Error(`no ${method} ${path} in ${Object.keys(document.paths).join(', ')}`);
  return found;
};

async function validateOpenApi(candidate: unknown): Promise<{ valid: boolean; errors?: unknown }> {
  const validator = new Validator();
  const result = await validator.validate(candidate as Record<string, unknown>);
  expect(validator.version).toBe('3.1');
  return result;
}

describe('createOpenApiDocument', () => {
  it('writes a document the OpenAPI 3.1 schema validator accepts (and the validator refuses broken ones)', async () => {
    expect(await validateOpenApi(document)).toEqual({ valid: true });
    const noTitle = structuredClone(document) as { info: Partial<OpenApiDocument['info']> };
    delete noTitle.info.title;
    expect((await validateOpenApi(noTitle)).valid).toBe(false);
    const bodyParameter = structuredClone(document);
    bodyParameter.paths['/api/notes']!.get!.parameters![0]!.in = 'body' as 'query';
    expect((await validateOpenApi(bodyParameter)).valid).toBe(false);
  });

  it('has one operation per route and method, named by the route; internal routes (`_…`) are left out', () => {
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`),
    );
    expect(operations).toEqual([
      'GET /api/notes notes.list',
      'POST /api/notes notes.create',
      'POST /api/notes/import notes.import',
      'GET /api/notes/{id} notes.show',
      'DELETE /api/notes/{id} notes.delete',
      'POST /api/search notes.search',
      'GET /docs/{page} docs_2',
      'GET /health health',
      'GET /status tenant.status_get',
      'HEAD /status tenant.status_head',
      'GET /{lang}/docs/{page} docs',
    ]);
  });

  it('turns requirements into anchored patterns, defaults into defaults, host patterns into servers', () => {
    expect(operation('/api/notes/{id}', 'get').parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^(?:[1-9][0-9]*)$' } },
    ]);
    expect(operation('/{lang}/docs/{page}', 'get').parameters?.[0]).toEqual({
      name: 'lang',
      in: 'path',
      required: true,
      schema: { type: 'string', pattern: '^(?:en|fr)$', default: 'en' },
    });
    expect(operation('/status', 'get').servers).toEqual([
      { url: 'https://{tenant}.example.com', variables: { tenant: { default: 'acme', enum: ['acme', 'globex'] } } },
    ]);
    expect(document.servers).toEqual([{ url: 'https://notes.example.com' }]);
  });

  it('documents payloads: query parameters, JSON and form bodies, from zod, ArkType (Standard JSON Schema) and Valibot (a converter)', () => {
    expect(operation('/api/notes', 'get').parameters?.map((p) => [p.name, p.in, p.required])).toEqual([
      ['q', 'query', false],
      ['tag', 'query', false],
      ['page', 'query', true],
    ]);
    expect(operation('/api/notes', 'post').requestBody).toEqual({
      required: true,
      content: {
        'application/json': {
          schema: { type: 'object', properties: { text: { type: 'string', minLength: 1, maxLength: 500 } }, required: ['text'] },
        },
      },
    });
    expect(operation('/api/search', 'post').requestBody?.content['application/json']?.schema).toMatchObject({
      properties: { words: { type: 'array', items: { type: 'string' } }, limit: { type: 'integer' } },
      required: ['words'],
    });
    expect(operation('/api/notes/import', 'post').requestBody?.content).toEqual({
      'application/x-www-form-urlencoded': {
        schema: { type: 'object', properties: { url: { type: 'string', format: 'uri' } }, required: ['url'] },
      },
    });
  });

  it('documents a multipart payload as multipart/form-data, its files as binary strings', async () => {
    const upload = defineTypedController(
      [mapPayload('upload', { from: 'multipart', schema: z.object({ note: z.string().optional(), file: z.file() }) })],
      (form) => new JsonResponse({ size: form.file.size }),
    );
    const routes = new RouteCollection().add('upload', '/upload', { methods: 'POST', controller: upload });
    const uploadDocument = createOpenApiDocument(routes, { info: { title: 'Uploads', version: '1' } });
    expect(uploadDocument.paths['/upload']?.post?.requestBody).toEqual({
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            properties: { note: { type: 'string' }, file: { type: 'string', format: 'binary', contentEncoding: 'binary' } },
            required: ['file'],
          },
        },
      },
    });
    expect(await validateOpenApi(uploadDocument)).toEqual({ valid: true });
  });

  it('moves named schemas into components and points to them', () => {
    expect(document.components.schemas['Note']).toMatchObject({ type: 'object', required: ['id', 'text'], additionalProperties: false });
    expect(operation('/api/notes/{id}', 'get').responses['200']).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Note' } } },
    });
    expect(JSON.stringify(document)).not.toContain('$defs');
  });

  it('marks security from the firewalls and _is_granted, with 401 and 403 where they can happen', () => {
    expect(document.components.securitySchemes).toEqual({ bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } });
    const guard = (path: string, method: 'get' | 'post' | 'delete') => {
      const op = operation(path, method);
      return [op.security, '401' in op.responses, '403' in op.responses];
    };
    // PUBLIC_ACCESS on a secured firewall: a token is optional, but a bad one is refused.
    expect(guard('/api/notes', 'get')).toEqual([[{}, { bearerAuth: [] }], true, false]);
    expect(guard('/api/notes', 'post')).toEqual([[{ bearerAuth: [] }], true, false]);
    expect(guard('/api/notes/{id}', 'delete')).toEqual([[{ bearerAuth: [] }], true, true]);
    expect(guard('/health', 'get')).toEqual([undefined, false, false]);
    // The request-forgery check (`_same_origin`) refuses cross-site calls with a 403 too.
    expect(guard('/api/search', 'post')).toEqual([[{}, { bearerAuth: [] }], true, true]);
  });

  it('documents a route default only through the contributor of the package that acts on it', () => {
    const bare = createOpenApiDocument(sampleRoutes(), { info: sampleOptions.info, converters: sampleOptions.converters! });
    const statuses = (path: string, method: 'get' | 'post') => Object.keys(bare.paths[path]![method]!.responses);
    expect(statuses('/api/notes/{id}', 'get')).toEqual(['200', '404', '405']);
    expect(statuses('/api/notes/import', 'post')).not.toContain('429');
    expect(bare.paths['/api/notes/{id}']!.get!.responses['200']).not.toHaveProperty('headers');
    expect(bare.paths['/api/notes']!.get!.security).toBeUndefined();
    expect(bare.components.securitySchemes).toEqual({});
    const onlyCache = createOpenApiDocument(sampleRoutes(), { ...sampleOptions, contributors: [httpCacheOpenApi()] });
    expect(Object.keys(onlyCache.paths['/api/notes/{id}']!.get!.responses)).toEqual(['200', '304', '404', '405']);
  });

  it("adds an identity provider's openIdConnect scheme: each operation lists the scopes its _is_granted grants", async () => {
    const controller = defineController([], () => new JsonResponse(null));
    const routes = [
      new Route('write', '/api/items', { methods: 'POST', controller, defaults: { _is_granted: ['ROLE_USER', 'SCOPE_items:write'] } }),
      new Route('remove', '/api/items/:id', {
        methods: 'DELETE',
        controller,
        defaults: { _is_granted: ['ROLE_ADMIN', 'SCOPE_items:admin', 'SCOPE_items:owner'] },
      }),
      new Route('me', '/api/me', { methods: 'GET', controller, defaults: { _is_granted: 'IS_AUTHENTICATED' } }),
      new Route('list', '/api/items', { methods: 'GET', controller, defaults: { _is_granted: 'PUBLIC_ACCESS' } }),
    ];
    const oidc = {
      name: 'oidc',
      definition: { type: 'openIdConnect', openIdConnectUrl: 'https://id.example.com/.well-known/openid-configuration' },
    } as const;
    const withOidc = createOpenApiDocument(routes, {
      info: { title: 't', version: '1' },
      contributors: [securityOpenApi({ firewalls: FIREWALLS, alternativeSchemes: [oidc] })],
    });
    expect(withOidc.components.securitySchemes['oidc']).toEqual(oidc.definition);
    expect(withOidc.paths['/api/items']?.post?.security).toEqual([{ bearerAuth: [] }, { oidc: ['items:write'] }]);
    expect(withOidc.paths['/api/items/{id}']?.delete?.security).toEqual([
      { bearerAuth: [] },
      { oidc: ['items:admin'] },
      { oidc: ['items:owner'] },
    ]);
    expect(withOidc.paths['/api/me']?.get?.security).toEqual([{ bearerAuth: [] }, { oidc: [] }]);
    expect(withOidc.paths['/api/items']?.get?.security).toEqual([{}, { bearerAuth: [] }, { oidc: [] }]);
    expect(await validateOpenApi(withOidc)).toEqual({ valid: true });
  });

  it('lists the error answers each route can give, as problem+json responses', () => {
    const statuses = (path: string, method: 'get' | 'post' | 'delete') => Object.keys(operation(path, method).responses);
    expect(statuses('/health', 'get')).toEqual(['404', '405', '2XX']);
    expect(statuses('/api/notes', 'post')).toEqual(['201', '400', '401', '404', '405', '413', '415', '422']);
    expect(statuses('/api/notes/{id}', 'get')).toEqual(['200', '304', '401', '404', '405']);
    expect(statuses('/api/notes/import', 'post')).toContain('429');
    expect(operation('/api/notes/{id}', 'get').responses['200']).toMatchObject({
      headers: { 'Cache-Control': { $ref: '#/components/headers/Cache-Control' }, ETag: { $ref: '#/components/headers/ETag' } },
    });
    expect(document.components.responses['MethodNotAllowed']).toMatchObject({ headers: { Allow: { $ref: '#/components/headers/Allow' } } });
    expect(document.components.responses['UnprocessableContent']?.content?.['application/problem+json']).toEqual({
      schema: { $ref: '#/components/schemas/ValidationProblem' },
    });
    expect(document.components.schemas['Violation']).toMatchObject({ required: ['path', 'message'] });
  });

  it("lists a route's declared formats as its media types, and a 406 problem when it declares formats", async () => {
    const Note = z.object({ id: z.number() });
    const controller = defineController([], () => [{ id: 1 }]);
    const csv: Encoder = { format: 'csv', mediaType: 'text/csv', encode: () => new JsonResponse(null) };
    const routes = [
      new Route('notes_list', '/notes', {
        methods: 'GET',
        controller,
        defaults: { _formats: ['json', 'ndjson', 'csv'], _responses: defineResponses({ 200: z.array(Note) }) },
      }),
      new Route('notes_feed', '/feed', { methods: 'GET', controller, defaults: { _formats: ['ndjson'] } }),
      new Route('notes_plain', '/plain', { methods: 'GET', controller, defaults: { _responses: defineResponses({ 200: z.array(Note) }) } }),
    ];
    const formatted = createOpenApiDocument(routes, { info: { title: 't', version: '1' }, encoders: [csv] });
    const responses = (path: string) => formatted.paths[path]!.get!.responses;
    const list = responses('/notes')['200'] as ResponseObject;
    expect(Object.keys(list.content!)).toEqual(['application/json', 'application/x-ndjson', 'text/csv']);
    // NDJSON sends a list one element a line: its schema is an element's.
    expect(list.content!['application/x-ndjson']!.schema).toMatchObject({ type: 'object', properties: { id: { type: 'number' } } });
    expect(list.content!['application/json']!.schema).toMatchObject({ type: 'array' });
    expect(Object.keys(responses('/notes'))).toEqual(['200', '404', '405', '406']);
    expect(responses('/notes')['406']).toEqual({ $ref: '#/components/responses/NotAcceptable' });
    // Declaring formats is what makes a 406 possible, with or without declared answers.
    expect(Object.keys(responses('/feed'))).toEqual(['404', '405', '406', '2XX']);
    expect(Object.keys(responses('/plain'))).toEqual(['200', '404', '405']);
    expect(Object.keys((responses('/plain')['200'] as ResponseObject).content!)).toEqual(['application/json']);
    expect(formatted.components.responses['NotAcceptable']?.content?.['application/problem+json']).toEqual({
      schema: { $ref: '#/components/schemas/NotAcceptableProblem' },
    });
    expect(formatted.components.schemas['NotAcceptableProblem']).toMatchObject({
      allOf: [{ $ref: '#/components/schemas/Problem' }, { required: ['available'] }],
    });
    expect(await validateOpenApi(formatted)).toEqual({ valid: true });
    // A format no encoder writes is named, as the view listener would name it.
    const unknown = [new Route('x', '/x', { methods: 'GET', controller, defaults: { _formats: ['xml'] } })];
    expect(() => createOpenApiDocument(unknown, { info: { title: 't', version: '1' } })).toThrow('Route "x" offers the format "xml"');
  });

  it('is deterministic: the same routes give the same text, whatever the order the options were written in', () => {
    const again = createOpenApiDocument(sampleRoutes(), {
      converters: sampleOptions.converters!,
      contributors: [securityOpenApi({ firewalls: FIREWALLS }), httpCacheOpenApi(), rateLimitOpenApi()],
      servers: [{ url: 'https://notes.example.com' }],
      info: { version: '1.0.0', title: 'Notes' },
    });
    expect(JSON.stringify(again)).toBe(JSON.stringify(document));
    expect(Object.keys(document.paths)).toEqual([...Object.keys(document.paths)].sort());
    expect(Object.keys(document)).toEqual(['openapi', 'info', 'servers', 'paths', 'components']);
  });

  it('takes a Router, a RouteCollection or a list of routes', () => {
    const routes = [new Route('ping', '/ping', { methods: 'GET', controller: defineController([], () => new JsonResponse('pong')) })];
    const fromList: OpenApiDocument = createOpenApiDocument(routes, { info: { title: 't', version: '1' } });
    expect(Object.keys(fromList.paths)).toEqual(['/ping']);
    expect(createOpenApiDocument(new RouteCollection().add(routes[0]!), { info: { title: 't', version: '1' } })).toEqual(fromList);
  });
});

describe('schemas that cannot be converted', () => {
  const info = { title: 't', version: '1' };
  const routeWith = (schema: Parameters<typeof mapPayload>[1]['schema']) =>
    new RouteCollection().add('events.create', '/events', {
      methods: 'POST',
      controller: defineTypedController([mapPayload('event', { from: 'json', schema })], () => new JsonResponse(null)),
    });

  it('names the route and the payload when the library cannot express the schema', () => {
    expect(() => createOpenApiDocument(routeWith(z.object({ at: z.date() })), { info })).toThrow(SchemaConversionError);
    expect(() => createOpenApiDocument(routeWith(z.object({ at: z.date() })), { info })).toThrow(
      /^Route "events\.create": the json body "event" \(a zod schema\) cannot be converted to JSON Schema: Date cannot be represented/,
    );
  });

  it('asks for a converter when the library has no Standard JSON Schema (Valibot without one)', () => {
    expect(() => createOpenApiDocument(routeWith(v.object({ name: v.string() })), { info })).toThrow(
      'Route "events.create": the json body "event" (a valibot schema) has no JSON Schema conversion',
    );
  });

  it('refuses a _responses option that is not statuses of schemas', () => {
    const routes = new RouteCollection().add('x', '/x', { controller: () => null, defaults: { _responses: { ok: z.string() } } });
    expect(() => createOpenApiDocument(routes, { info })).toThrow('The _responses option of route "x": "ok" is not a status');
  });
});
