import { defineController, JsonResponse, Response, type Request } from '@switchboard/http-kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CacheAttributeListener, entityTag } from '../src/index.js';
import { createTestClient, type TestClient, type TestResponse } from '@switchboard/testing';
import { hostKernel, type TestKernel } from '../../../test/kit/host-kernel.js';

const ITEMS: Record<string, { version: number; updatedAt: Date }> = {
  a: { version: 7, updatedAt: new Date('2026-03-01T10:00:00Z') },
  b: { version: 2, updatedAt: new Date('2026-03-02T10:00:00Z') },
};
const UPDATED_A = ITEMS['a']!.updatedAt.toUTCString();

let app: TestKernel;
let client: TestClient;
/** Controller runs per route: a 304 must be answered without running it. */
const runs: Record<string, number> = {};
let payloadStepRuns = 0;

function show(route: string) {
  return defineController(['id'], (id: string) => {
    runs[route] = (runs[route] ?? 0) + 1;
    return new JsonResponse({ id, version: ITEMS[id]?.version });
  });
}

beforeAll(() => {
  app = hostKernel(
    {
      'GET /items/:id': {
        controller: show('etag'),
        // The tag comes from the controller arguments (the `id` route parameter).
        defaults: {
          _cache: {
            public: true,
            maxAgeSeconds: 60,
            vary: ['Accept'],
            etag: (_request: Request, args: readonly unknown[]) => `item-${String(args[0])}-v${ITEMS[String(args[0])]?.version}`,
          },
        },
      },
      'POST /items/:id': {
        controller: show('post'),
        defaults: { _cache: { etag: () => 'item-a-v7' } },
      },
      'GET /dated/:id': {
        controller: show('dated'),
        defaults: {
          _cache: {
            public: true,
            maxAgeSeconds: 60,
            lastModified: async (request: Request) => ITEMS[String(request.attributes.get('id'))]?.updatedAt ?? null,
          },
        },
      },
      'PUT /dated/:id': {
        controller: show('dated-write'),
        defaults: { _cache: { lastModified: () => ITEMS['a']!.updatedAt } },
      },
      'GET /opaque': {
        controller: defineController([], () => new Response('x')),
        defaults: { _cache: { etag: () => 'has "quotes" and spaces' } },
      },
      'GET /own-etag': {
        controller: defineController([], () => new Response('x', 200, { etag: '"controller"' })),
        defaults: { _cache: { etag: () => 'attribute' } },
      },
    },
    { subscribers: [new CacheAttributeListener()] },
  );
  // Stands for payload mapping (0): a 304 decided at 10 must skip it.
  app.dispatcher.on('kernel.controller_arguments', () => void payloadStepRuns++, 0, { name: 'TestPayloadStep' });
  client = createTestClient(app.kernel);
});
afterAll(() => client.settled());

function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<TestResponse> {
  return client.request(method, path, { headers });
}

describe('ETag and If-None-Match', () => {
  it('sends the computed ETag with the route’s caching headers', async () => {
    const response = await get('/items/a');
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBe('"item-a-v7"');
    expect(response.headers.get('cache-control')).toBe('max-age=60, public');
    expect(response.headers.get('vary')).toBe('Accept');
  });

  it.each([
    ['the same tag', '"item-a-v7"'],
    ['the weak form of the tag (weak comparison)', 'W/"item-a-v7"'],
    ['a list holding the tag', '"other", "item-a-v7"'],
    ['*', '*'],
  ])('answers 304 to %s without running the controller or the payload step', async (_case, ifNoneMatch) => {
    const before = { controller: runs['etag'] ?? 0, payload: payloadStepRuns };
    const response = await get('/items/a', { 'if-none-match': ifNoneMatch });
    expect(response.status).toBe(304);
    expect(await response.text()).toBe('');
    expect(response.headers.get('etag')).toBe('"item-a-v7"');
    expect(response.headers.get('cache-control')).toBe('max-age=60, public');
    expect(response.headers.get('vary')).toBe('Accept');
    expect(response.headers.get('date')).not.toBeNull();
    expect(response.headers.get('content-type')).toBeNull();
    expect(runs['etag'] ?? 0).toBe(before.controller);
    expect(payloadStepRuns).toBe(before.payload);
  });

  it('answers 200 with the body when the tag changed', async () => {
    const response = await get('/items/b', { 'if-none-match': '"item-a-v7"' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: 'b', version: 2 });
    expect(response.headers.get('etag')).toBe('"item-b-v2"');
  });

  it('answers 304 to HEAD; a POST whose If-None-Match matches is a failed precondition (412), not a 304', async () => {
    expect((await get('/items/a', { 'if-none-match': '"item-a-v7"' }, 'HEAD')).status).toBe(304);
    const before = runs['post'] ?? 0;
    const post = await get('/items/a', { 'if-none-match': '"item-a-v7"' }, 'POST');
    expect(post.status).toBe(412);
    expect(runs['post'] ?? 0).toBe(before);
    const other = await get('/items/a', { 'if-none-match': '"item-a-v6"' }, 'POST');
    expect(other.status).toBe(200);
    expect(runs['post']).toBe(before + 1);
  });

  it('refuses a write whose If-Match names another version with 412, before the controller runs', async () => {
    const before = runs['post'] ?? 0;
    expect((await get('/items/a', { 'if-match': '"item-a-v6"' }, 'POST')).status).toBe(412);
    expect(runs['post'] ?? 0).toBe(before);
    expect((await get('/items/a', { 'if-match': '"item-a-v7"' }, 'POST')).status).toBe(200);
  });

  it('keeps the controller’s own ETag', async () => {
    const response = await get('/own-etag');
    expect(response.headers.get('etag')).toBe('"controller"');
  });

  it('hashes a value that is not a valid entity tag into one', async () => {
    const response = await get('/opaque');
    expect(response.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect((await get('/opaque', { 'if-none-match': response.headers.get('etag')! })).status).toBe(304);
    expect(entityTag('v1')).toBe('"v1"');
    expect(entityTag('W/"v1"')).toBe('W/"v1"');
  });
});

describe('Last-Modified and If-Modified-Since', () => {
  it('sends Last-Modified', async () => {
    const response = await get('/dated/a');
    expect(response.headers.get('last-modified')).toBe(UPDATED_A);
  });

  it('answers 304 when the resource did not change since the given date', async () => {
    const before = runs['dated'] ?? 0;
    for (const since of [UPDATED_A, new Date('2026-03-05T00:00:00Z').toUTCString()]) {
      const response = await get('/dated/a', { 'if-modified-since': since });
      expect(response.status).toBe(304);
      expect(await response.text()).toBe('');
      expect(response.headers.get('last-modified')).toBe(UPDATED_A);
      expect(response.headers.get('cache-control')).toBe('max-age=60, public');
    }
    expect(runs['dated'] ?? 0).toBe(before);
  });

  it('answers 200 when it changed since, and for an unparsable or future date', async () => {
    for (const since of [new Date('2026-02-01T00:00:00Z').toUTCString(), 'yesterday', new Date(Date.now() + 86_400_000).toUTCString()]) {
      const response = await get('/dated/a', { 'if-modified-since': since });
      expect(response.status, since).toBe(200);
    }
  });

  it('ignores If-Modified-Since when If-None-Match is present (RFC 9110 §13.2.2)', async () => {
    const response = await get('/dated/a', { 'if-modified-since': UPDATED_A, 'if-none-match': '"whatever"' });
    expect(response.status).toBe(200);
  });

  it('gives a 304 over a raw HTTP/1.1 connection no body bytes', async () => {
    const wire = await client.socket();
    try {
      const raw = await wire.get('/dated/a', { headers: { 'if-modified-since': UPDATED_A } });
      expect(raw.status).toBe(304);
      expect(raw.body.byteLength).toBe(0);
      expect(raw.headers.get('content-length')).toBeNull();
    } finally {
      await wire.close();
    }
  });
});

describe('If-Unmodified-Since', () => {
  it('refuses a write with 412 when the resource changed after the given date, over a real socket', async () => {
    const wire = await client.socket();
    try {
      const changed = await wire.put('/dated/a', { headers: { 'if-unmodified-since': new Date('2026-02-01T00:00:00Z').toUTCString() } });
      expect(changed.status).toBe(412);
      const unchanged = await wire.put('/dated/a', { headers: { 'if-unmodified-since': UPDATED_A } });
      expect(unchanged.status).toBe(200);
    } finally {
      await wire.close();
    }
  });

  // RFC 9110 §13.1.4: a value that is not a valid HTTP-date is ignored. `Date.parse` reads `1` as 2001.
  it.each(['1', 'tomorrow 5', '2026-02-01', 'Sun, 01 Feb 2026 00:00:00', 'Sun, 31 Feb 2026 00:00:00 GMT'])(
    'ignores If-Unmodified-Since: %s on a write (no 412)',
    async (value) => {
      const wire = await client.socket();
      try {
        const response = await wire.put('/dated/a', { headers: { 'if-unmodified-since': value } });
        expect(response.status).toBe(200);
      } finally {
        await wire.close();
      }
    },
  );
});
