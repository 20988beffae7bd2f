import { defineController, JsonResponse, Response } from '@switchboard/http-kernel';
import { ViewListener } from '@switchboard/http-kernel/view';
import { RouteCollection } from '@switchboard/router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineResponses, ResponseSchemaListener } from '../src/index.js';
import { serveRoutes, type ServedApp } from './support/served-app.js';

const Account = z.object({
  id: z.number().int(),
  name: z.string(),
  tags: z.array(z.object({ label: z.string() })),
  note: z.string().nullable(),
});

/** What a controller hands over: the stored row, with members no client may see. */
const stored = {
  id: 7,
  name: 'ada',
  passwordHash: 'scrypt$secret',
  tags: [{ label: 'admin', internalId: 99 }],
  note: null,
};

function accountRoutes(): RouteCollection {
  return new RouteCollection()
    .add('account', '/account', {
      methods: 'GET',
      controller: defineController([], () => new JsonResponse(stored)),
      defaults: { _responses: defineResponses({ 200: Account }) },
    })
    .add('account_broken', '/account/broken', {
      methods: 'GET',
      controller: defineController([], () => new JsonResponse({ id: 'seven', name: 'ada', tags: [], note: null, secret: 's' })),
      defaults: { _responses: defineResponses({ 200: Account }) },
    })
    .add('account_classes', '/account/classes', {
      methods: 'GET',
      controller: defineController(['request'], () => new JsonResponse({ ...stored, id: 8 }, 202)),
      defaults: { _responses: defineResponses({ '2XX': Account, 404: null }) },
    })
    .add('accounts', '/accounts', {
      methods: 'GET',
      controller: defineController([], () => [stored, { ...stored, id: 9 }]),
      defaults: { _formats: ['json', 'ndjson'], _responses: defineResponses({ 200: z.array(Account) }) },
    })
    .add('account_counted', '/account/counted', {
      methods: 'GET',
      controller: defineController([], () => new CountedJsonResponse(stored)),
      defaults: { _responses: defineResponses({ 200: Account }) },
    })
    .add('account_text', '/account/text', {
      methods: 'GET',
      controller: defineController([], () => new Response(JSON.stringify(stored), 200, { 'content-type': 'application/json' })),
      defaults: { _responses: defineResponses({ 200: Account }) },
    });
}

/** Counts how often its body is written. */
class CountedJsonResponse extends JsonResponse {
  static written = 0;
  protected override serialize(data: unknown): string {
    CountedJsonResponse.written++;
    return super.serialize(data);
  }
}

const mismatches = (app: ServedApp) => app.terminated.map(({ request }) => request.attributes.get('_response_schema_mismatch'));
const warnings = (app: ServedApp) => app.logger.records.filter((record) => record.level === 'WARNING' && record.channel === 'openapi');

describe('ResponseSchemaListener, production mode', () => {
  let app: ServedApp;
  beforeAll(async () => {
    app = await serveRoutes(accountRoutes(), [new ResponseSchemaListener(), new ViewListener()]);
  });
  afterAll(() => app.close());

  it('filters the data before the body is written, and writes it once', async () => {
    const before = CountedJsonResponse.written;
    const response = await fetch(`${app.origin}/account/counted`);
    expect(await response.json()).toEqual({ id: 7, name: 'ada', tags: [{ label: 'admin' }], note: null });
    expect(CountedJsonResponse.written - before).toBe(1);
  });

  it('filters what the view layer writes, NDJSON included', async () => {
    const filtered = [
      { id: 7, name: 'ada', tags: [{ label: 'admin' }], note: null },
      { id: 9, name: 'ada', tags: [{ label: 'admin' }], note: null },
    ];
    expect(await (await fetch(`${app.origin}/accounts`)).json()).toEqual(filtered);
    const ndjson = await fetch(`${app.origin}/accounts`, { headers: { accept: 'application/x-ndjson' } });
    expect(ndjson.headers.get('content-type')).toBe('application/x-ndjson');
    expect(
      (await ndjson.text())
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual(filtered);
  });

  it('drops the members the declared schema does not list, at every depth', async () => {
    const response = await fetch(`${app.origin}/account`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: 7, name: 'ada', tags: [{ label: 'admin' }], note: null });
  });

  it('uses the status class when the status has no declaration of its own', async () => {
    const response = await fetch(`${app.origin}/account/classes`);
    expect([response.status, await response.json()]).toEqual([202, { id: 8, name: 'ada', tags: [{ label: 'admin' }], note: null }]);
  });

  it('leaves alone what is not a JsonResponse, and error answers', async () => {
    expect(JSON.parse(await (await fetch(`${app.origin}/account/text`)).text())).toEqual(stored);
    const notFound = await fetch(`${app.origin}/nowhere`, { headers: { accept: 'application/json' } });
    expect([notFound.status, ((await notFound.json()) as { status: number }).status]).toEqual([404, 404]);
  });

  it('does not validate nor warn outside debug mode', async () => {
    const response = await fetch(`${app.origin}/account/broken`);
    expect(await response.json()).toEqual({ id: 'seven', name: 'ada', tags: [], note: null });
    expect(warnings(app)).toEqual([]);
    expect(mismatches(app).filter((mismatch) => mismatch !== undefined)).toEqual([]);
  });
});

describe('ResponseSchemaListener, debug mode', () => {
  let app: ServedApp;
  beforeAll(async () => {
    app = await serveRoutes(accountRoutes(), (logger) => [new ResponseSchemaListener({ debug: true, logger }), new ViewListener()]);
  });
  afterAll(() => app.close());

  it('still drops undeclared members, and says which at WARNING and in the request attributes the profiler records', async () => {
    const response = await fetch(`${app.origin}/account`);
    expect(await response.json()).toEqual({ id: 7, name: 'ada', tags: [{ label: 'admin' }], note: null });
    expect(mismatches(app).at(-1)).toEqual({ status: 200, dropped: ['/passwordHash', '/tags/0/internalId'], issues: [] });
    expect(warnings(app).at(-1)?.message).toBe(
      'The 200 answer of route "account" does not match its declared schema (undeclared members dropped: /passwordHash, /tags/0/internalId).',
    );
  });

  it('flags an answer that breaks its schema and sends it unrepaired', async () => {
    const response = await fetch(`${app.origin}/account/broken`);
    expect(await response.json()).toEqual({ id: 'seven', name: 'ada', tags: [], note: null });
    expect(mismatches(app).at(-1)).toMatchObject({ status: 200, dropped: ['/secret'], issues: [{ path: '/id' }] });
    expect(warnings(app).at(-1)?.message).toMatch(/^The 200 answer of route "account_broken" does not match its declared schema: \/id .+/);
    expect(warnings(app).at(-1)?.context).toMatchObject({ route: 'account_broken', status: 200 });
  });
});
