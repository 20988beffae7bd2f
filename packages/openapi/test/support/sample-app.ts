import { toJsonSchema } from '@valibot/to-json-schema';
import { httpCacheOpenApi } from '@switchboard/http-cache/openapi';
import { defineController, JsonResponse, Response } from '@switchboard/http-kernel';
import { defineTypedController, mapPayload } from '@switchboard/payload';
import { rateLimitOpenApi } from '@switchboard/rate-limit/openapi';
import { RouteCollection } from '@switchboard/router';
import { securityOpenApi } from '@switchboard/security/openapi';
import { type } from 'arktype';
import * as v from 'valibot';
import { z } from 'zod';
import { defineResponses, type JsonSchemaConverter, type OpenApiOptions } from '../../src/index.js';

/** The routes of a small app, one of each thing the document reads; shared by the tests and the command's test. */
export const Note = z.object({ id: z.number().int(), text: z.string() }).meta({ id: 'Note' });
const NewNote = z.object({ text: z.string().min(1).max(500) });
const NoteQuery = z.object({ q: z.string().optional(), tag: z.array(z.string()).optional(), page: z.string().regex(/^\d+$/) });

export const valibotConverter: JsonSchemaConverter = (schema) =>
  schema['~standard'].vendor === 'valibot'
    ? (toJsonSchema(schema as v.GenericSchema, { target: 'draft-2020-12' }) as Record<string, unknown>)
    : undefined;

export const FIREWALLS = [
  { name: 'health', pattern: /^\/health(\/|$)/, security: false },
  { name: 'api', pattern: /^\/api(\/|$)/, security: true },
];

export function sampleRoutes(): RouteCollection {
  const routes = new RouteCollection();
  const ok = defineController([], () => new JsonResponse({ ok: true }));
  routes.add('notes.list', '/api/notes', {
    methods: 'GET',
    controller: defineTypedController([mapPayload('query', { from: 'query', schema: NoteQuery })], () => new JsonResponse([])),
    defaults: { _is_granted: 'PUBLIC_ACCESS', _responses: defineResponses({ 200: z.array(Note) }) },
  });
  routes.add('notes.create', '/api/notes', {
    methods: 'POST',
    controller: defineTypedController(
      [mapPayload('note', { from: 'json', schema: NewNote })],
      (note) => new JsonResponse({ id: 1, ...note }, 201),
    ),
    defaults: {
      _is_granted: 'IS_AUTHENTICATED',
      _responses: defineResponses({ 201: { schema: Note, headers: { Location: { required: true } } } }),
    },
  });
  routes.add('notes.show', '/api/notes/:id', {
    methods: 'GET',
    controller: defineController(['id'], (id: string) => new JsonResponse({ id: Number(id), text: 'x' })),
    requirements: { id: '[1-9][0-9]*' },
    defaults: {
      _is_granted: 'PUBLIC_ACCESS',
      _cache: { public: true, maxAgeSeconds: 30, etag: () => 'v1' },
      _responses: defineResponses({ 200: Note }),
    },
  });
  routes.add('notes.delete', '/api/notes/:id', {
    methods: 'DELETE',
    controller: defineController(['id'], () => new Response(null, 204)),
    requirements: { id: '[1-9][0-9]*' },
    defaults: { _is_granted: 'ROLE_ADMIN', _responses: defineResponses({ 204: null }) },
  });
  routes.add('notes.import', '/api/notes/import', {
    methods: ['POST'],
    controller: defineTypedController(
      [mapPayload('form', { from: 'form', schema: v.object({ url: v.pipe(v.string(), v.url()) }) })],
      () => new Response(null, 202),
    ),
    defaults: { _is_granted: 'ROLE_EDITOR', _rate_limit: { limit: 5, intervalMs: 60 } },
  });
  routes.add('notes.search', '/api/search', {
    methods: ['POST'],
    controller: defineTypedController(
      [mapPayload('search', { from: 'json', schema: type({ words: 'string[]', 'limit?': 'number.integer' }) })],
      () => ok(),
    ),
    defaults: { _is_granted: 'PUBLIC_ACCESS', _same_origin: true },
  });
  routes.add('docs', '{/:lang}/docs/*page', {
    methods: ['GET'],
    controller: ok,
    requirements: { lang: 'en|fr' },
    defaults: { lang: 'en' },
  });
  routes.add('tenant.status', '/status', {
    methods: ['GET', 'HEAD'],
    controller: ok,
    host: ':tenant.example.com',
    requirements: { tenant: 'acme|globex' },
  });
  routes.add('health', '/health', { methods: 'GET', controller: ok });
  routes.add('_profiler', '/_profiler/:token', { controller: ok });
  return routes;
}

export const sampleOptions: OpenApiOptions = {
  info: { title: 'Notes', version: '1.0.0' },
  servers: [{ url: 'https://notes.example.com' }],
  contributors: [securityOpenApi({ firewalls: FIREWALLS }), httpCacheOpenApi(), rateLimitOpenApi()],
  converters: [valibotConverter],
};

/** What the command imports: the routes with the options. */
export default { routes: sampleRoutes(), ...sampleOptions };
