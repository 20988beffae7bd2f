import {
  defineController,
  EventDispatcher,
  JsonResponse,
  NotFoundHttpError,
  Response,
  type KernelEventMap,
} from '@switchboard/http-kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CacheAttributeListener, defineCache, type CacheOptions } from '../src/index.js';
import { createTestClient, type TestClient, type TestResponse } from '@switchboard/testing';
import { hostKernel } from '../../../test/kit/host-kernel.js';

let client: TestClient;

function answering(cache: CacheOptions, response: () => Response = () => new JsonResponse({ ok: true })) {
  return { controller: defineController([], response), defaults: { _cache: cache } };
}

beforeAll(() => {
  const { kernel } = hostKernel(
    {
      'GET /public': answering({ public: true, maxAgeSeconds: 60 }),
      'GET /private': answering({ public: false, maxAgeSeconds: 30 }),
      'GET /unscoped': answering({ maxAgeSeconds: 60 }),
      'GET /shared': answering({ sMaxAgeSeconds: 120, staleWhileRevalidateSeconds: 30, staleIfErrorSeconds: 600, mustRevalidate: true }),
      'GET /vary': answering(
        { public: true, maxAgeSeconds: 5, vary: ['Accept-Language', 'accept'] },
        () => new Response('hi', 200, { vary: 'Accept' }),
      ),
      'GET /own-headers': answering({ public: true, maxAgeSeconds: 600 }, () => new Response('mine', 200, { 'cache-control': 'no-store' })),
      'GET /missing': answering({ public: true, maxAgeSeconds: 600, etag: () => 'v1' }, () => {
        throw new NotFoundHttpError('No such item.');
      }),
      'GET /crash': answering({ public: true, maxAgeSeconds: 600, lastModified: () => new Date('2026-01-01T00:00:00Z') }, () => {
        throw new Error('database down');
      }),
      'GET /returned-error': answering({ public: true, maxAgeSeconds: 600 }, () => new Response('gone', 410)),
      'GET /typo': { controller: defineController([], () => new Response('x')), defaults: { _cache: { maxage: 60 } } },
      'GET /none': { controller: defineController([], () => new Response('plain')) },
    },
    { subscribers: [new CacheAttributeListener()] },
  );
  client = createTestClient(kernel);
});
afterAll(() => client.settled());

function get(path: string, headers: Record<string, string> = {}): Promise<TestResponse> {
  return client.get(path, { headers: { accept: 'application/json', ...headers } });
}

describe('Cache-Control from the _cache route option', () => {
  it.each([
    ['/public', 'max-age=60, public'],
    ['/private', 'max-age=30, private'],
    // No scope declared: the default rule adds private, as for any response.
    ['/unscoped', 'max-age=60, private'],
    ['/shared', 'must-revalidate, s-maxage=120, stale-if-error=600, stale-while-revalidate=30'],
    ['/none', 'no-cache, private'],
  ])('%s → %s', async (path, expected) => {
    const response = await get(path);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe(expected);
  });

  it('merges Vary with the controller’s, without duplicates', async () => {
    const response = await get('/vary');
    expect(response.headers.get('vary')).toBe('Accept, Accept-Language');
  });

  it('leaves the controller’s own Cache-Control alone', async () => {
    const response = await get('/own-headers');
    expect(response.headers.get('cache-control')).toBe('no-store, private');
    expect(await response.text()).toBe('mine');
  });
});

describe('errors are never cached', () => {
  it('gives a thrown 404 from a cached route "no-cache, private" and no validators', async () => {
    const response = await get('/missing');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.headers.get('cache-control')).toBe('no-cache, private');
    expect(response.headers.get('etag')).toBeNull();
  });

  it('does the same for a 500 and for an error status the controller returned', async () => {
    const crash = await get('/crash');
    expect(crash.status).toBe(500);
    expect(crash.headers.get('cache-control')).toBe('no-cache, private');
    expect(crash.headers.get('last-modified')).toBeNull();
    const gone = await get('/returned-error');
    expect(gone.status).toBe(410);
    expect(gone.headers.get('cache-control')).toBe('no-cache, private');
  });

  it('turns a misspelt option into a clear server error rather than ignoring it', async () => {
    const response = await client.get('/typo', { headers: { accept: 'text/plain' } });
    expect(response.status).toBe(500);
    expect(response.headers.get('cache-control')).toBe('no-cache, private');
    expect(() => defineCache({ maxAgeSeconds: -1 })).toThrow(/whole number of seconds/);
    expect(() => defineCache({ maxage: 1 } as CacheOptions)).toThrow(/Unknown _cache option "maxage"/);
    expect(() => defineCache({ vary: ['Accept Language'] })).toThrow(/header names/);
  });
});

describe('CacheAttributeListener', () => {
  it('listens at kernel.controller_arguments 10 and kernel.response −10', () => {
    const dispatcher = new EventDispatcher<KernelEventMap>();
    dispatcher.addSubscriber(new CacheAttributeListener());
    expect(dispatcher.getListeners('kernel.controller_arguments').map((l) => [l.name, l.priority])).toEqual([
      ['CacheAttributeListener.onControllerArguments', 10],
    ]);
    expect(dispatcher.getListeners('kernel.response').map((l) => [l.name, l.priority])).toEqual([
      ['CacheAttributeListener.onKernelResponse', -10],
    ]);
  });
});
