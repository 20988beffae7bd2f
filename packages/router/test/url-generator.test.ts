import { describe, expect, it } from 'vitest';
import { Request } from '@switchboard/http-kernel';
import {
  InvalidParameterError,
  MissingMandatoryParametersError,
  RequestContext,
  RouteCollection,
  RouteNotFoundError,
  Router,
} from '../src/index.js';

const routes = new RouteCollection()
  .add('item', '/items/:id', { requirements: { id: '\\d+' } })
  .add('page', '/pages{/:page}', { defaults: { page: '1' } })
  .add('file', '/files/*path')
  .add('cafe', '/café/:name')
  .add('api', '/status', { host: ':version.api.example.com', requirements: { version: 'v\\d+' } })
  .add('secure', '/login', { schemes: 'https' })
  .add('profiler', '/_profiler/:token')
  .add('dots', '/d/:x');
const router = new Router(routes);

describe('UrlGenerator', () => {
  it('builds paths, percent-encoding parameters', () => {
    expect(router.generate('item', { id: 42 })).toBe('/items/42');
    expect(router.generate('cafe', { name: 'thé au lait' })).toBe('/caf%C3%A9/th%C3%A9%20au%20lait');
    expect(router.generate('file', { path: 'a b/c?d' })).toBe('/files/a%20b/c%3Fd');
    expect(router.generate('file', { path: ['a b', 'c?d'] })).toBe('/files/a%20b/c%3Fd');
  });

  it('keeps the characters Symfony leaves readable and encodes dot segments', () => {
    expect(router.generate('dots', { x: 'a@b:c;d,e=f+g!h*i|j' })).toBe('/d/a@b:c;d,e=f+g!h*i|j');
    expect(router.generate('dots', { x: '..' })).toBe('/d/%2E%2E');
  });

  it('puts unknown parameters in the query string and _fragment in the fragment', () => {
    expect(router.generate('item', { id: 1, sort: 'name asc', page: 2, _fragment: 'top' })).toBe('/items/1?sort=name%20asc&page=2#top');
  });

  it('writes an optional group only when its value differs from the default', () => {
    expect(router.generate('page')).toBe('/pages');
    expect(router.generate('page', { page: 1 })).toBe('/pages');
    expect(router.generate('page', { page: 3 })).toBe('/pages/3');
  });

  it('fails clearly on an unknown route, a missing parameter and a requirement violation', () => {
    // @ts-expect-error the compiler refuses an unknown name; at run time it is a RouteNotFoundError.
    expect(() => router.generate('nope')).toThrow(RouteNotFoundError);
    // @ts-expect-error the compiler refuses a missing parameter; at run time it is named.
    expect(() => router.generate('item')).toThrow(new MissingMandatoryParametersError('item', ['id']));
    // @ts-expect-error as above
    expect(() => router.generate('item')).toThrow('Some mandatory parameters are missing ("id") to generate a URL for route "item".');
    expect(() => router.generate('item', { id: 'abc' })).toThrow(InvalidParameterError);
    expect(() => router.generate('item', { id: 'abc' })).toThrow(
      'Parameter "id" for route "item" must match "\\d+" ("abc" given) to generate a corresponding URL.',
    );
  });

  it('builds absolute URLs from a request: scheme, host and a non-default port', () => {
    const request = Request.fromUrl('http://127.0.0.1:8080/anything');
    expect(router.generate('profiler', { token: 'abc123' }, { absolute: true, request })).toBe('http://127.0.0.1:8080/_profiler/abc123');
    const secure = Request.fromUrl('https://v2.api.example.com/x');
    expect(router.generate('profiler', { token: 'ab' }, { absolute: true, request: secure })).toBe(
      'https://v2.api.example.com/_profiler/ab',
    );
  });

  it('prefixes the configured base URL', () => {
    const behindProxy = new Router(routes, { baseUrl: '/app/' });
    const request = Request.fromUrl('https://example.com:8443/app/x');
    expect(behindProxy.generate('item', { id: 3 })).toBe('/app/items/3');
    expect(behindProxy.generate('item', { id: 3 }, { absolute: true, request })).toBe('https://example.com:8443/app/items/3');
  });

  it('uses a fixed public address when given one', () => {
    const context = RequestContext.fromUrl('https://v2.api.example.com/base');
    expect(router.generate('profiler', { token: 'ff' }, { absolute: true, context })).toBe('https://v2.api.example.com/base/_profiler/ff');
  });

  it('makes the URL absolute when the route needs another host or scheme', () => {
    expect(router.generate('api', { version: 'v2' })).toBe('http://v2.api.example.com/status');
    expect(() => router.generate('api', { version: 'beta' })).toThrow(InvalidParameterError);
    expect(router.generate('secure')).toBe('https://localhost/login');
    const request = Request.fromUrl('https://localhost/');
    expect(router.generate('secure', {}, { request })).toBe('/login');
  });

  it('round-trips: a generated path matches its route with the same parameters', () => {
    for (const [name, params] of [
      ['item', { id: '9' }],
      ['cafe', { name: 'ünï cödé?#%' }],
      ['file', { path: 'a/b c' }],
    ] as const) {
      const path = (router as Router).generate(name, params);
      expect(router.matchPath(path, { method: 'GET', host: 'localhost', scheme: 'http' })).toMatchObject({ kind: 'match', params });
    }
    // A one-segment parameter cannot hold a `/`: its default requirement rejects it.
    expect(() => router.generate('cafe', { name: 'a/b' })).toThrow(InvalidParameterError);
  });
});
