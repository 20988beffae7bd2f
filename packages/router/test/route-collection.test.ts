import { defineController, type Request, Response } from '@switchboard/http-kernel';
import { describe, expect, it } from 'vitest';
import { Route, RouteCollection, RouteDefinitionError } from '../src/index.js';

describe('RouteCollection', () => {
  it('keeps declaration order and moves a re-added name to the end', () => {
    const routes = new RouteCollection().add('a', '/a').add('b', '/b').add('c', '/c').add('a', '/a2');
    expect(routes.all().map((r) => `${r.name} ${r.path}`)).toEqual(['b /b', 'c /c', 'a /a2']);
    expect(routes.size).toBe(3);
    expect(routes.get('a')?.path).toBe('/a2');
  });

  it('normalises paths, methods and schemes', () => {
    const route = new Route('r', 'items//', { methods: ['get', 'Post', 'GET'], schemes: 'HTTPS', host: 'API.Example.com' });
    expect(route.path).toBe('/items//');
    expect(route.methods).toEqual(['GET', 'POST']);
    expect(route.schemes).toEqual(['https']);
    expect(route.host).toBe('api.example.com');
  });

  it('stores the controller as the _controller default, beside any other default', () => {
    const controller = () => null;
    const route = new Route('r', '/', { controller, defaults: { _stateless: true, _cache: { maxAgeSeconds: 5 } } });
    expect(route.defaults).toEqual({ _stateless: true, _cache: { maxAgeSeconds: 5 }, _controller: controller });
  });

  it('mounts a collection under a prefix with name prefix, host and defaults, the route’s own values winning', () => {
    const profiler = new RouteCollection()
      .add('home', '/')
      .add('panel', '/:token', { requirements: { token: '[0-9a-f]+|latest' }, defaults: { _stateless: false } });
    const app = new RouteCollection()
      .add('index', '/')
      .mount('/_profiler/', profiler, { namePrefix: '_profiler_', defaults: { _stateless: true, area: 'debug' }, methods: 'GET' });
    expect(app.all().map((r) => [r.name, r.path, r.methods.join()])).toEqual([
      ['index', '/', ''],
      ['_profiler_home', '/_profiler/', 'GET'],
      ['_profiler_panel', '/_profiler/:token', 'GET'],
    ]);
    expect(app.get('_profiler_panel')?.defaults).toEqual({ _stateless: false, area: 'debug' });
    expect(app.get('_profiler_panel')?.requirements).toEqual({ token: '[0-9a-f]+|latest' });
  });

  it.each([
    ['a bad pattern', '/items/:', {}, /Route "broken": Missing parameter name/],
    ['an unclosed group', '/items{/:id', {}, /Route "broken": Unexpected end/],
    ['a duplicate parameter', '/:id/x/:id', {}, /Route "broken": parameter "id" appears more than once/],
    [
      'an invalid requirement',
      '/:id',
      { requirements: { id: '[a-' } },
      /Route "broken": the requirement for "id" is not a valid regular expression/,
    ],
    ['an empty requirement', '/:id', { requirements: { id: '^$' } }, /Route "broken": the requirement for "id" cannot be empty/],
    ['a reserved name', '/:_fragment', {}, /Route "broken": "_fragment" is reserved/],
    ['a too long name', `/:${'x'.repeat(33)}`, {}, /Route "broken": parameter name "x+" is longer than 32/],
    [
      'a host parameter repeated in the path',
      '/:version',
      { host: ':version.example.com' },
      /Route "broken": parameter "version" appears in both/,
    ],
    [
      'a braced name as a segment',
      '/notes/{id}',
      {},
      /Route "broken": "\{id\}" is an optional piece of literal text, not a parameter: write ":id"/,
    ],
    ['a braced name at the end of a path', '/notes/{id}/edit', {}, /write ":id" for a parameter, or "\{\/:id\}" in place of "\/\{id\}"/],
    [
      'a requirement for a parameter the path does not have',
      '/notes/:id',
      { requirements: { noteId: '\\d+' } },
      /Route "broken": the requirement for "noteId" names no parameter \(the route's parameters: id\)/,
    ],
  ] as const)('rejects %s at definition time, naming the route', (_, path, options, message) => {
    expect(() => new RouteCollection().add('broken', path, options)).toThrow(RouteDefinitionError);
    expect(() => new RouteCollection().add('broken', path, options)).toThrow(message);
  });

  it('rejects a plain default that names neither a parameter nor an argument of the controller, at definition time', () => {
    const list = defineController(['request', 'page'], (_request: Request, page: string) => new Response(page));
    // Written as a Route: the typed `add` would already refuse it at compile time.
    const misspelt = () => new RouteCollection().add(new Route('items', '/items{/:page}', { controller: list, defaults: { pgae: '1' } }));
    expect(misspelt).toThrow(RouteDefinitionError);
    expect(misspelt).toThrow(
      'Route "items": the default "pgae" names neither a parameter nor an argument of the controller ' +
        "(the route's parameters: page; the controller's arguments: request, page); " +
        'a value for listeners is a default named with a leading "_". (path "/items{/:page}")',
    );
    const bySource = () =>
      new Route('items', '/items', { controller: (request: Request) => new Response(request.method), defaults: { format: 'json' } });
    expect(bySource).toThrow('the default "format" names neither a parameter nor an argument of the controller');
    // A default for a parameter, for an argument, or named with "_" is kept; so is any default of a route without a controller function.
    const kept = new Route('items', '/items{/:page}', { controller: list, defaults: { page: '1', request: null, _flag: true } });
    expect(Object.keys(kept.defaults)).toEqual(['page', 'request', '_flag', '_controller']);
    expect(new Route('named', '/items', { controller: 'items.list', defaults: { format: 'json' } }).defaults['format']).toBe('json');
  });

  it("gives a mount's plain defaults only to the routes that have the parameter or whose controller takes the argument", () => {
    const show = defineController(['id', 'format'], (id: string, format: string) => new Response(`${id}.${format}`));
    const mounted = new RouteCollection().mount(
      '/api',
      new RouteCollection()
        .add(new Route('item', '/items/:id', { controller: show }))
        .add('health', '/health', { controller: () => new Response('ok') })
        .add('other', '/other'),
      { defaults: { format: 'json', _stateless: true } },
    );
    expect(mounted.get('item')?.defaults).toEqual({ format: 'json', _stateless: true, _controller: show });
    expect(Object.keys(mounted.get('health')?.defaults ?? {})).toEqual(['_stateless', '_controller']);
    expect(mounted.get('other')?.defaults).toEqual({ format: 'json', _stateless: true });
  });

  it('keeps braced text that is not a whole segment, and a collection requirement only where its parameter is', () => {
    const optional = new Route('files', '/file{s}/:name');
    expect(optional.compiled.regex.test('/files/a')).toBe(true);
    expect(optional.compiled.regex.test('/file/a')).toBe(true);
    const mounted = new RouteCollection().mount('/v/:version', new RouteCollection().add('home', '/').add('item', '/items/:id'), {
      requirements: { version: '\\d+', id: '\\d+' },
    });
    expect(mounted.get('home')?.requirements).toEqual({ version: '\\d+' });
    expect(mounted.get('item')?.requirements).toEqual({ version: '\\d+', id: '\\d+' });
  });

  it('normalises requirements: anchors stripped, capturing groups made non-capturing', () => {
    const route = new Route('r', '/:a/:b', { requirements: { a: '^(en|fr)$', b: /(?<year>\d{4})-(\d\d)/ } });
    expect(route.requirements).toEqual({ a: '(?:en|fr)', b: '(?:\\d{4})-(?:\\d\\d)' });
    expect(route.compiled.regex.exec('/fr/2024-05')?.slice(1)).toEqual(['fr', '2024-05']);
  });
});
