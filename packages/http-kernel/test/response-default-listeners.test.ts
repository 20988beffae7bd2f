import { describe, expect, it } from 'vitest';
import {
  DefaultCacheControlListener,
  DisallowRobotsIndexingListener,
  EventDispatcher,
  HttpKernel,
  Request,
  Response,
  type HeaderInit,
  type KernelEventMap,
} from '../src/index.js';

/** A kernel whose only controller answers with the given headers, plus the two default listeners. */
async function answer(headers: HeaderInit, extra?: (dispatcher: EventDispatcher<KernelEventMap>) => void): Promise<Response> {
  const dispatcher = new EventDispatcher<KernelEventMap>();
  dispatcher.addSubscriber(new DefaultCacheControlListener());
  dispatcher.addSubscriber(new DisallowRobotsIndexingListener());
  extra?.(dispatcher);
  const kernel = new HttpKernel({ dispatcher });
  const request = Request.fromUrl('http://localhost/page', { attributes: [['_controller', () => new Response('ok', 200, headers)]] });
  return kernel.handle(request);
}

describe('DefaultCacheControlListener', () => {
  it('gives a response without caching headers "no-cache, private"', async () => {
    const response = await answer({});
    expect(response.headers.get('cache-control')).toBe('no-cache, private');
  });

  it('uses "private, must-revalidate" when Last-Modified or Expires is present', async () => {
    expect((await answer({ 'last-modified': 'Sun, 06 Nov 1994 08:49:37 GMT' })).headers.get('cache-control')).toBe(
      'private, must-revalidate',
    );
    expect((await answer({ expires: 'Sun, 06 Nov 1994 08:49:37 GMT' })).headers.get('cache-control')).toBe('private, must-revalidate');
  });

  it('adds private to directives that name no scope, and keeps scoped ones', async () => {
    expect((await answer({ 'cache-control': 'max-age=60' })).headers.get('cache-control')).toBe('max-age=60, private');
    expect((await answer({ 'cache-control': 'public, max-age=60' })).headers.get('cache-control')).toBe('public, max-age=60');
    expect((await answer({ 'cache-control': 'S-MAXAGE=10' })).headers.get('cache-control')).toBe('S-MAXAGE=10');
    expect((await answer({ 'cache-control': 'no-store, private' })).headers.get('cache-control')).toBe('no-store, private');
  });

  it('judges each value on its own when one listener sees many in turn', async () => {
    const dispatcher = new EventDispatcher<KernelEventMap>();
    dispatcher.addSubscriber(new DefaultCacheControlListener());
    const kernel = new HttpKernel({ dispatcher });
    const cacheControlFor = async (value: string) => {
      const controller = () => new Response('ok', 200, { 'cache-control': value });
      const response = await kernel.handle(Request.fromUrl('http://localhost/', { attributes: [['_controller', controller]] }));
      return response.headers.get('cache-control');
    };
    expect(await cacheControlFor('public, max-age=60')).toBe('public, max-age=60');
    expect(await cacheControlFor('max-age=60')).toBe('max-age=60, private');
    expect(await cacheControlFor('public, max-age=60')).toBe('public, max-age=60');
    expect(await cacheControlFor('max-age=60')).toBe('max-age=60, private');
  });

  it('runs after a listener at −10 that sets caching headers', async () => {
    const response = await answer({}, (d) =>
      d.on('kernel.response', (event) => void event.response.headers.set('cache-control', 'public, max-age=5'), -10),
    );
    expect(response.headers.get('cache-control')).toBe('public, max-age=5');
    expect(DefaultCacheControlListener.RESPONSE_PRIORITY).toBeLessThan(-10);
    expect(DefaultCacheControlListener.RESPONSE_PRIORITY).toBeGreaterThan(-100);
  });
});

describe('DisallowRobotsIndexingListener', () => {
  it('adds x-robots-tag: noindex at −255', async () => {
    const response = await answer({});
    expect(response.headers.get('x-robots-tag')).toBe('noindex');
    const dispatcher = new EventDispatcher<KernelEventMap>();
    dispatcher.addSubscriber(new DisallowRobotsIndexingListener());
    expect(dispatcher.getListeners('kernel.response').map((l) => l.priority)).toEqual([-255]);
  });

  it('keeps an X-Robots-Tag the response already has', async () => {
    const response = await answer({ 'X-Robots-Tag': 'none' });
    expect(response.headers.getAll('x-robots-tag')).toEqual(['none']);
  });
});
