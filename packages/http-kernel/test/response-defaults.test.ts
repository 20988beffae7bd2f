import { describe, expect, it } from 'vitest';
import {
  DisallowRobotsIndexingListener,
  EventDispatcher,
  HeaderBag,
  HttpKernel,
  JsonResponse,
  Request,
  Response,
  ResponseHeaderBag,
  type HeaderInit,
  type KernelEventMap,
} from '../src/index.js';

/** A kernel whose only controller answers with the given headers, plus the robots listener. */
async function answer(headers: HeaderInit, extra?: (dispatcher: EventDispatcher<KernelEventMap>) => void): Promise<Response> {
  const dispatcher = new EventDispatcher<KernelEventMap>();
  dispatcher.addSubscriber(new DisallowRobotsIndexingListener());
  extra?.(dispatcher);
  const kernel = new HttpKernel({ dispatcher });
  const request = Request.fromUrl('http://localhost/page', { attributes: [['_controller', () => new Response('ok', 200, headers)]] });
  return kernel.handle(request);
}

describe("A response's Cache-Control", () => {
  it('is "no-cache, private" when nothing was stated, on every kind of response', async () => {
    expect((await answer({})).headers.get('cache-control')).toBe('no-cache, private');
    expect(new Response().headers.get('cache-control')).toBe('no-cache, private');
    expect(new JsonResponse({ a: 1 }).headers.get('cache-control')).toBe('no-cache, private');
    expect(new ResponseHeaderBag().get('cache-control')).toBe('no-cache, private');
    expect(new Response().headers.statedCacheControl).toBeUndefined();
  });

  it('is "private, must-revalidate" while Last-Modified or Expires is present', async () => {
    expect((await answer({ 'last-modified': 'Sun, 06 Nov 1994 08:49:37 GMT' })).headers.get('cache-control')).toBe(
      'private, must-revalidate',
    );
    expect((await answer({ expires: 'Sun, 06 Nov 1994 08:49:37 GMT' })).headers.get('cache-control')).toBe('private, must-revalidate');
    const headers = new JsonResponse({}).headers;
    headers.set('Last-Modified', 'Sun, 06 Nov 1994 08:49:37 GMT');
    expect(headers.get('cache-control')).toBe('private, must-revalidate');
    headers.delete('last-modified');
    expect(headers.get('cache-control')).toBe('no-cache, private');
  });

  it('adds private to stated directives that name no scope, and keeps scoped ones', async () => {
    expect((await answer({ 'cache-control': 'max-age=60' })).headers.get('cache-control')).toBe('max-age=60, private');
    expect((await answer({ 'cache-control': 'public, max-age=60' })).headers.get('cache-control')).toBe('public, max-age=60');
    expect((await answer({ 'cache-control': 'S-MAXAGE=10' })).headers.get('cache-control')).toBe('S-MAXAGE=10');
    expect((await answer({ 'cache-control': 'no-store, private' })).headers.get('cache-control')).toBe('no-store, private');
    expect((await answer({ 'cache-control': ['no-store', 'max-age=0'] })).headers.getAll('cache-control')).toEqual([
      'no-store, max-age=0, private',
    ]);
  });

  it('follows each change to the headers, and keeps what was stated apart', () => {
    const headers = new Response().headers;
    headers.set('Cache-Control', 'max-age=60');
    expect(headers.get('cache-control')).toBe('max-age=60, private');
    expect(headers.statedCacheControl).toBe('max-age=60');
    headers.append('cache-control', 'public');
    expect(headers.getAll('cache-control')).toEqual(['max-age=60, public']);
    headers.delete('cache-control');
    expect(headers.get('cache-control')).toBe('no-cache, private');
    expect(headers.statedCacheControl).toBeUndefined();
    headers.set('cache-control', '  ');
    expect(headers.get('cache-control')).toBe('no-cache, private');
  });

  it('is what a later kernel.response listener reads, and follows what an earlier one states', async () => {
    const seen: Array<string | undefined> = [];
    const response = await answer({}, (d) => {
      d.on('kernel.response', (event) => void seen.push(event.response.headers.get('cache-control')), 10);
      d.on('kernel.response', (event) => void event.response.headers.set('cache-control', 'public, max-age=5'), 0);
      d.on('kernel.response', (event) => void seen.push(event.response.headers.get('cache-control')), -10);
    });
    expect(seen).toEqual(['no-cache, private', 'public, max-age=5']);
    expect(response.headers.get('cache-control')).toBe('public, max-age=5');
  });

  it('is kept by a response given a plain HeaderBag, which it copies', () => {
    const given = new HeaderBag({ 'cache-control': 'max-age=5' });
    const response = new Response('', 200, given);
    given.set('cache-control', 'public');
    expect(response.headers.get('cache-control')).toBe('max-age=5, private');
    expect(given.get('cache-control')).toBe('public');
  });

  it('is carried by a copy of the headers, with what was stated', () => {
    const original = new Response('', 200, { 'cache-control': 'max-age=5' }).headers;
    const copy = new ResponseHeaderBag(original);
    expect(copy.get('cache-control')).toBe('max-age=5, private');
    expect(copy.statedCacheControl).toBe('max-age=5');
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

describe("A response's Date", () => {
  const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

  it('is there from the start, however the headers were given', () => {
    expect(new Response().headers.get('date')).toMatch(HTTP_DATE);
    expect(new Response('', 200, { 'content-type': 'text/plain' }).headers.get('date')).toMatch(HTTP_DATE);
    expect(new Response('', 200, new HeaderBag([['vary', 'Accept']])).headers.get('date')).toMatch(HTTP_DATE);
    expect(new ResponseHeaderBag({ 'content-type': 'text/plain' }).get('date')).toMatch(HTTP_DATE);
    expect(new JsonResponse({ a: 1 }, 201, { vary: 'Accept' }).headers.getAll('date')).toHaveLength(1);
  });

  it('is the one the headers given name, once', () => {
    const stated = 'Sun, 06 Nov 1994 08:49:37 GMT';
    const headers = new Response('', 200, { Date: stated, 'content-type': 'text/plain' }).headers;
    expect(headers.getAll('date')).toEqual([stated]);
    expect(new ResponseHeaderBag(headers).getAll('date')).toEqual([stated]);
  });
});
