import { request as httpRequest } from 'node:http';
import { JsonResponse, type Request } from '@switchboard/http-kernel';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { defineTypedController, mapPayload } from '../src/index.js';
import { createTestClient, type TestClient, type TestResponse } from '@switchboard/testing';
import { hostKernel } from '../../../test/kit/host-kernel.js';
import { payloadWiring } from './support/payload-wiring.js';

const zodItem = z.object({
  name: z.string().min(1),
  price: z.number().positive(),
  lines: z.array(z.object({ sku: z.string(), quantity: z.number().int() })).default([]),
});

const valibotItem = v.object({
  name: v.pipe(v.string(), v.minLength(1)),
  price: v.pipe(v.number(), v.minValue(0.01)),
  lines: v.optional(v.array(v.object({ sku: v.string(), quantity: v.pipe(v.number(), v.integer()) })), []),
});

const MAX_BODY_BYTES = 2048;
let client: TestClient;
/** Payloads each controller was called with: a rejected payload must never show up here. */
const received: unknown[] = [];

const createWithZod = defineTypedController(
  ['request', mapPayload('item', { from: 'json', schema: zodItem })],
  (request: Request, item) => {
    expectTypeOf(item).toEqualTypeOf<{ name: string; price: number; lines: { sku: string; quantity: number }[] }>();
    received.push(item);
    return new JsonResponse({ created: item, method: request.method, total: item.price * 2 }, 201);
  },
);

const createWithValibot = defineTypedController([mapPayload('item', { from: 'json', schema: valibotItem })], (item) => {
  expectTypeOf(item.lines).toEqualTypeOf<{ sku: string; quantity: number }[]>();
  received.push(item);
  return new JsonResponse({ created: item }, 201);
});

beforeAll(() => {
  const { kernel } = hostKernel(
    { 'POST /zod/items': createWithZod, 'POST /valibot/items': createWithValibot },
    payloadWiring({ maxBodyBytes: MAX_BODY_BYTES }),
  );
  client = createTestClient(kernel);
});
afterAll(() => client.settled());

function post(path: string, body: string, contentType: string | null = 'application/json'): Promise<TestResponse> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (contentType !== null) headers['content-type'] = contentType;
  return client.post(path, { headers, body });
}

async function problemOf(response: TestResponse): Promise<Record<string, unknown>> {
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  return (await response.json()) as Record<string, unknown>;
}

describe.each([
  ['zod', '/zod/items'],
  ['valibot', '/valibot/items'],
])('JSON payload validated by %s', (_library, path) => {
  it('hands the validated, transformed payload to the controller', async () => {
    const before = received.length;
    const response = await post(path, JSON.stringify({ name: 'lamp', price: 12.5, extra: 'dropped' }));
    expect(response.status).toBe(201);
    const body = (await response.json()) as { created: unknown };
    expect(body.created).toEqual({ name: 'lamp', price: 12.5, lines: [] });
    expect(received.slice(before)).toEqual([{ name: 'lamp', price: 12.5, lines: [] }]);
  });

  it('accepts a +json media type and a utf-8 charset', async () => {
    const response = await post(path, JSON.stringify({ name: 'é', price: 1 }), 'application/merge-patch+json; charset=UTF-8');
    expect(response.status).toBe(201);
  });

  it('answers 422 with one violation per missing field, as JSON pointers', async () => {
    const before = received.length;
    const response = await post(path, JSON.stringify({ price: 3 }));
    expect(response.status).toBe(422);
    const problem = await problemOf(response);
    expect(problem).toMatchObject({ type: 'about:blank', title: 'Unprocessable Content', status: 422 });
    expect(problem['violations']).toEqual([{ path: '/name', message: expect.any(String) }]);
    expect(received.length).toBe(before);
  });

  it('answers 422 for a value of the wrong type', async () => {
    const response = await post(path, JSON.stringify({ name: 'lamp', price: 'cheap' }));
    expect(response.status).toBe(422);
    const violations = (await problemOf(response))['violations'] as Array<{ path: string; message: string }>;
    expect(violations).toHaveLength(1);
    expect(violations[0]!.path).toBe('/price');
    expect(violations[0]!.message.length).toBeGreaterThan(0);
  });

  it('lists every nested violation with its full path', async () => {
    const response = await post(
      path,
      JSON.stringify({
        name: '',
        price: 1,
        lines: [
          { sku: 'a', quantity: 1 },
          { sku: 7, quantity: 1.5 },
        ],
      }),
    );
    expect(response.status).toBe(422);
    const violations = (await problemOf(response))['violations'] as Array<{ path: string; message: string }>;
    expect(violations.map((violation) => violation.path).sort()).toEqual(['/lines/1/quantity', '/lines/1/sku', '/name']);
    for (const violation of violations) expect(Object.keys(violation).sort()).toEqual(['message', 'path']);
  });

  it('answers 422 with the root path for a payload that is not an object, and for an empty body', async () => {
    for (const body of ['"lamp"', '']) {
      const response = await post(path, body);
      expect(response.status).toBe(422);
      const violations = (await problemOf(response))['violations'] as Array<{ path: string }>;
      expect(violations.map((violation) => violation.path)).toEqual(['']);
    }
  });

  it('answers 400 for malformed JSON without echoing the body', async () => {
    const before = received.length;
    const response = await post(path, '{"name": "lamp", "password": "hunter2"');
    expect(response.status).toBe(400);
    const text = await response.text();
    expect(text).not.toContain('hunter2');
    expect(JSON.parse(text)).toMatchObject({ status: 400, title: 'Bad Request' });
    expect(received.length).toBe(before);
  });

  it('answers 400 for a body that is not UTF-8', async () => {
    const response = await client.post(path, {
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    });
    expect(response.status).toBe(400);
  });

  it('answers 415 for another media type, a non-UTF-8 charset, or a body without Content-Type', async () => {
    const before = received.length;
    const json = JSON.stringify({ name: 'lamp', price: 1 });
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', null]) {
      const response = await post(path, json, contentType);
      expect(response.status, String(contentType)).toBe(415);
      expect(await problemOf(response)).toMatchObject({ status: 415, title: 'Unsupported Media Type' });
    }
    expect(received.length).toBe(before);
  });

  it('answers 413 for a body over the limit announced by Content-Length', async () => {
    const response = await post(path, JSON.stringify({ name: 'x'.repeat(MAX_BODY_BYTES), price: 1 }));
    expect(response.status).toBe(413);
    expect(await problemOf(response)).toMatchObject({ status: 413 });
  });

  it('answers 413 for a chunked body that goes over the limit while read', async () => {
    // Chunked framing exists only on the wire.
    const wire = await client.socket();
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const outgoing = httpRequest(
        `${wire.serverUrl}${path}`,
        { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' } },
        (incoming) => {
          let text = '';
          incoming.setEncoding('utf8');
          incoming.on('data', (chunk: string) => (text += chunk));
          incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body: text }));
        },
      );
      outgoing.on('error', reject);
      // No Content-Length: node sends it chunked, so only counting the bytes can catch it.
      for (let i = 0; i < 8; i++) outgoing.write(i === 0 ? '{"name":"' : 'x'.repeat(512));
      outgoing.end('","price":1}');
    }).finally(() => wire.close());
    expect(status).toBe(413);
    expect(JSON.parse(body)).toMatchObject({ status: 413 });
  });
});
