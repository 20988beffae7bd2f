import { defineController, JsonResponse, NotFoundHttpError } from '@switchboard/http-kernel';
import type { DispatchTrace } from '@switchboard/http-kernel/tracing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CacheAttributeListener, defineCache } from '../src/index.js';
import { createTestClient, type TestClient } from '@switchboard/testing';
import { hostKernel } from '../../../test/kit/host-kernel.js';

const ITEMS = new Map([['1', { name: 'lamp', version: 4 }]]);
let client: TestClient;
const traces: DispatchTrace[] = [];

beforeAll(() => {
  const { kernel } = hostKernel(
    {
      'GET /items/:id': {
        controller: defineController(['id'], (id: string) => {
          const item = ITEMS.get(id);
          if (item === undefined) throw new NotFoundHttpError(`No item ${id}.`);
          return new JsonResponse({ id, name: item.name });
        }),
        // The route option travels as a route default, which the router copies into the attributes.
        defaults: {
          _cache: defineCache({
            public: true,
            maxAgeSeconds: 120,
            vary: ['Accept'],
            etag: (_request, [id]) => `item-${String(id)}-v${ITEMS.get(String(id))?.version ?? 0}`,
          }),
        },
      },
    },
    // What the profiler's events panel reads.
    { subscribers: [new CacheAttributeListener()], tracer: (trace) => traces.push(trace) },
  );
  client = createTestClient(kernel);
});
afterAll(() => client.settled());

describe('the _cache route default through the real router', () => {
  it('caches a found item and answers a revalidation with 304', async () => {
    const first = await client.get('/items/1');
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('max-age=120, public');
    expect(first.headers.get('etag')).toBe('"item-1-v4"');
    const again = await client.get('/items/1', { headers: { 'if-none-match': first.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect(again.headers.get('cache-control')).toBe('max-age=120, public');
  });

  it('never caches the 404 of a cached route, nor a routing 404 or 405', async () => {
    for (const [method, path, status] of [
      ['GET', '/items/9', 404],
      ['GET', '/nothing', 404],
      ['POST', '/items/1', 405],
    ] as const) {
      const response = await client.request(method, path, { headers: { accept: 'application/json' } });
      expect(response.status, `${method} ${path}`).toBe(status);
      expect(response.headers.get('cache-control')).toBe('no-cache, private');
      expect(response.headers.get('etag')).toBeNull();
    }
  });

  it('shows both steps, by name and priority, in the dispatch traces the profiler reads', async () => {
    traces.length = 0;
    await client.get('/items/1');
    const called = traces.flatMap((trace) => trace.called.map((call) => `${trace.eventName} ${call.priority} ${call.name}`));
    expect(called).toContain('kernel.controller_arguments 10 CacheAttributeListener.onControllerArguments');
    expect(called).toContain('kernel.response -10 CacheAttributeListener.onKernelResponse');
  });
});
