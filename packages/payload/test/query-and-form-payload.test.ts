import type { StandardSchemaV1 } from '@standard-schema/spec';
import { JsonResponse } from '@switchboard/http-kernel';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTypedController, mapPayload } from '../src/index.js';
import { createTestClient, type TestClient, type TestResponse } from '@switchboard/testing';
import { hostKernel } from '../../../test/kit/host-kernel.js';
import { payloadWiring } from './support/payload-wiring.js';

const listQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  tag: z.union([z.string(), z.array(z.string())]).optional(),
});

const contactForm = v.object({
  email: v.pipe(v.string(), v.email()),
  topics: v.array(v.string()),
});

/** Lets the mapped object through untouched, so a test can see exactly what was built. */
const anyObject: StandardSchemaV1<unknown, Record<string, unknown>> = {
  '~standard': { version: 1, vendor: 'test', validate: (value) => ({ value: value as Record<string, unknown> }) },
};

let client: TestClient;

beforeAll(() => {
  const { kernel } = hostKernel(
    {
      'GET /items': defineTypedController(
        [mapPayload('filter', { from: 'query', schema: listQuery })],
        (filter) => new JsonResponse({ page: filter.page, tag: filter.tag ?? null }),
      ),
      'GET /raw-query': defineTypedController(
        [mapPayload('query', { from: 'query', schema: anyObject })],
        (query) =>
          new JsonResponse({
            keys: Object.keys(query),
            proto: query['__proto__'],
            plain: Object.getPrototypeOf(query) === Object.prototype,
          }),
      ),
      'POST /contact': defineTypedController(
        [mapPayload('contact', { from: 'form', schema: contactForm })],
        (contact) => new JsonResponse({ email: contact.email, topics: contact.topics }),
      ),
    },
    payloadWiring(),
  );
  client = createTestClient(kernel);
});
afterAll(() => client.settled());

describe('query string payload', () => {
  it('maps names to strings, repeated names to arrays, and lets the schema coerce', async () => {
    const response = await client.get('/items?page=3&tag=a&tag=b');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ page: 3, tag: ['a', 'b'] });
  });

  it('applies schema defaults to an empty query', async () => {
    expect(await (await client.get('/items')).json()).toEqual({ page: 1, tag: null });
  });

  it('answers 422 for a query that fails its schema', async () => {
    const response = await client.get('/items?page=0', { headers: { accept: 'application/json' } });
    expect(response.status).toBe(422);
    const problem = (await response.json()) as { violations: Array<{ path: string }> };
    expect(problem.violations.map((violation) => violation.path)).toEqual(['/page']);
  });

  it('treats a "__proto__" parameter as an ordinary name', async () => {
    const response = await client.get('/items?__proto__=x&page=2');
    expect(response.status).toBe(200);
    // Repeated, it maps to an array: a plain assignment would make that array the object's prototype.
    const raw = await client.get('/raw-query?__proto__=a&__proto__=b&page=2');
    expect(await raw.json()).toEqual({ keys: ['__proto__', 'page'], proto: ['a', 'b'], plain: true });
  });
});

describe('form body payload', () => {
  it('maps an urlencoded form', async () => {
    const response = await client.post('/contact', {
      body: new URLSearchParams([
        ['email', 'a@example.com'],
        ['topics', 'x'],
        ['topics', 'y'],
      ]),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ email: 'a@example.com', topics: ['x', 'y'] });
  });

  it('answers 422 with a violation per field', async () => {
    const response = await client.post('/contact', {
      headers: { accept: 'application/json' },
      body: new URLSearchParams([
        ['email', 'not-an-email'],
        ['topics', 'single'],
      ]),
    });
    expect(response.status).toBe(422);
    const problem = (await response.json()) as { violations: Array<{ path: string }> };
    expect(problem.violations.map((violation) => violation.path).sort()).toEqual(['/email', '/topics']);
  });

  it('answers 415 for JSON and for multipart', async () => {
    const json = await client.post('/contact', {
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: '{"email":"a@example.com","topics":[]}',
    });
    expect(json.status).toBe(415);
    const form = new FormData();
    form.set('email', 'a@example.com');
    const multipart = await client.post('/contact', { body: form, headers: { accept: 'application/json' } });
    expect(multipart.status).toBe(415);
  });
});

describe('field limit of query strings and forms', () => {
  /** `count` fields `f0=x&f1=x…`, empty parts between them not counted. */
  const fields = (count: number): string => `&${Array.from({ length: count }, (_, i) => `f${i}=x`).join('&')}&&`;

  /** A 413 problem document; with a debug-mode error listener, also the message that names the limit. */
  const expectTooManyFields = async (response: TestResponse, what?: string, limit?: number): Promise<void> => {
    expect(response.status).toBe(413);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    const problem = (await response.json()) as { status: number; detail: string };
    expect(problem.status).toBe(413);
    if (what !== undefined) expect(problem.detail).toBe(`${what} has more than the ${limit} fields this server reads.`);
  };

  it('reads 1,000 query fields and answers 413 problem+json for 1,001', async () => {
    const accepted = await client.get(`/raw-query?${fields(1000)}`, { headers: { accept: 'application/json' } });
    expect(((await accepted.json()) as { keys: string[] }).keys).toHaveLength(1000);
    const refused = await client.get(`/raw-query?${fields(1001)}`, { headers: { accept: 'application/json' } });
    await expectTooManyFields(refused);
  });

  it('answers 413 problem+json for a form of 1,001 fields', async () => {
    const refused = await client.post('/contact', {
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: `email=a%40example.com&${fields(1000)}`,
    });
    await expectTooManyFields(refused);
  });

  it('takes another limit from the resolver and from one argument', async () => {
    const { kernel } = hostKernel(
      {
        'GET /resolver-limit': defineTypedController(
          [mapPayload('query', { from: 'query', schema: anyObject })],
          (query) => new JsonResponse(Object.keys(query)),
        ),
        'GET /argument-limit': defineTypedController(
          [mapPayload('query', { from: 'query', schema: anyObject, maxFields: 1 })],
          (query) => new JsonResponse(Object.keys(query)),
        ),
      },
      { ...payloadWiring({ maxFields: 3 }), debug: true },
    );
    const limited = createTestClient(kernel);
    const headers = { accept: 'application/json' };
    expect((await limited.get('/resolver-limit?a=1&b=2&c=3', { headers })).status).toBe(200);
    await expectTooManyFields(await limited.get('/resolver-limit?a=1&b=2&c=3&d=4', { headers }), 'The query string', 3);
    await expectTooManyFields(await limited.get('/argument-limit?a=1&b=2', { headers }), 'The query string', 1);
  });
});
