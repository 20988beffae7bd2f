import { describe, expect, it } from 'vitest';
import { MalformedPathError, type RouteOptions } from '../src/index.js';
import { match, routerOf } from './support/match.js';

describe('declaration order', () => {
  it('gives the first matching route, even when a static route is declared after a dynamic one', () => {
    const router = routerOf([
      ['by_id', '/users/:id'],
      ['me', '/users/me'],
    ]);
    expect(match(router, 'GET', '/users/me')).toEqual({ kind: 'match', route: 'by_id', params: { id: 'me' } });
  });

  it('lets a static route declared first win over a later dynamic one', () => {
    const router = routerOf([
      ['me', '/users/me'],
      ['by_id', '/users/:id'],
    ]);
    expect(match(router, 'GET', '/users/me')).toMatchObject({ route: 'me' });
    expect(match(router, 'GET', '/users/7')).toMatchObject({ route: 'by_id', params: { id: '7' } });
  });

  it('keeps order between a static route shadowed by a dynamic one and later statics of the same path', () => {
    const router = routerOf([
      ['any', '/:page', { methods: 'POST' }],
      ['about_get', '/about', { methods: 'GET' }],
      ['about_any', '/about'],
    ]);
    expect(match(router, 'POST', '/about')).toMatchObject({ route: 'any' });
    expect(match(router, 'GET', '/about')).toMatchObject({ route: 'about_get' });
    expect(match(router, 'PUT', '/about')).toMatchObject({ route: 'about_any' });
  });

  it('keeps order between routes that share a prefix but diverge in a literal and a parameter', () => {
    const router = routerOf([
      ['events', '/repos/:owner/:repo/issues/events', { methods: 'GET' }],
      ['issue', '/repos/:owner/:repo/issues/:number', { methods: ['GET', 'PATCH'] }],
      ['comments', '/repos/:owner/:repo/issues/comments', { methods: 'GET' }],
    ]);
    expect(match(router, 'GET', '/repos/a/b/issues/events')).toMatchObject({ route: 'events' });
    expect(match(router, 'GET', '/repos/a/b/issues/comments')).toMatchObject({ route: 'issue', params: { number: 'comments' } });
    expect(match(router, 'PATCH', '/repos/a/b/issues/events')).toMatchObject({ route: 'issue', params: { number: 'events' } });
  });

  it('tells apart static paths of one length that share characters, and turns away others of that length', () => {
    const paths = ['/aab', '/abb', '/bab', '/baa', '/a'];
    const router = routerOf(paths.map((path, i): [string, string] => [`s${i}`, path]));
    paths.forEach((path, i) => expect(match(router, 'GET', path)).toMatchObject({ kind: 'match', route: `s${i}` }));
    for (const path of ['/bbb', '/aaa', '/abx', '/b']) expect(match(router, 'POST', path)).toEqual({ kind: 'not-found', path });
  });

  it('replaces a route added again under the same name and moves it to the end', () => {
    const router = routerOf([
      ['a', '/x/:id'],
      ['b', '/x/fixed'],
      ['a', '/y/:id'],
    ]);
    expect(match(router, 'GET', '/x/fixed')).toMatchObject({ route: 'b' });
    expect(match(router, 'GET', '/x/1')).toEqual({ kind: 'not-found', path: '/x/1/' });
    expect(match(router, 'GET', '/y/1')).toMatchObject({ route: 'a' });
  });
});

describe('methods', () => {
  it('matches HEAD against GET routes and against HEAD-only routes', () => {
    const router = routerOf([
      ['get', '/a', { methods: 'GET' }],
      ['head', '/b', { methods: 'HEAD' }],
    ]);
    expect(match(router, 'HEAD', '/a')).toMatchObject({ kind: 'match', route: 'get' });
    expect(match(router, 'HEAD', '/b')).toMatchObject({ kind: 'match', route: 'head' });
    expect(match(router, 'GET', '/b')).toEqual({ kind: 'method-not-allowed', allowedMethods: ['HEAD'] });
  });

  it('answers a static path for methods no route names: 405 with its Allow list, or the route that takes any method', () => {
    const router = routerOf([
      ['read', '/report', { methods: ['GET'] }],
      ['write', '/report', { methods: ['PUT', 'POST'] }],
      ['other', '/other', { methods: ['DELETE'] }],
      ['any', '/open'],
    ]);
    for (const method of ['PROPFIND', 'PATCH', 'DELETE', 'OTHER'])
      expect(match(router, method, '/report')).toEqual({ kind: 'method-not-allowed', allowedMethods: ['GET', 'PUT', 'POST'] });
    for (const method of ['PROPFIND', 'PATCH', 'GET'])
      expect(match(router, method, '/open')).toMatchObject({ kind: 'match', route: 'any' });
    expect(match(router, 'PUT', '/report')).toMatchObject({ kind: 'match', route: 'write' });
  });

  it('answers 405 with the union of allowed methods, declaration order, no duplicates, HEAD never added', () => {
    const router = routerOf([
      ['one', '/items/:id', { methods: ['get', 'POST'] }],
      ['two', '/items/:id', { methods: ['POST', 'PUT'] }],
      ['three', '/items/:name', { methods: ['PATCH', 'GET'] }],
    ]);
    expect(match(router, 'DELETE', '/items/1')).toEqual({ kind: 'method-not-allowed', allowedMethods: ['GET', 'POST', 'PUT', 'PATCH'] });
  });

  it('lets a later route that fully matches win over an earlier method mismatch', () => {
    const router = routerOf([
      ['post', '/form', { methods: 'POST' }],
      ['get', '/form', { methods: 'GET' }],
    ]);
    expect(match(router, 'GET', '/form')).toMatchObject({ kind: 'match', route: 'get' });
  });

  it('collects allowed methods across static and dynamic routes', () => {
    const router = routerOf([
      ['static', '/x/a', { methods: 'GET' }],
      ['dynamic', '/x/:id', { methods: 'PUT' }],
    ]);
    expect(match(router, 'POST', '/x/a')).toEqual({ kind: 'method-not-allowed', allowedMethods: ['GET', 'PUT'] });
  });

  it('answers each method of a static path from its own route, HEAD from GET, in declaration order', () => {
    const router = routerOf([
      ['get', '/s', { methods: 'GET' }],
      ['post', '/s', { methods: 'POST' }],
      ['put', '/s', { methods: 'PUT' }],
      ['delete', '/s', { methods: 'DELETE' }],
      ['patch', '/s', { methods: 'PATCH' }],
      ['options', '/s', { methods: 'OPTIONS' }],
      ['post_again', '/s', { methods: ['POST', 'PROPFIND'] }],
    ]);
    for (const [method, route] of [
      ['GET', 'get'],
      ['HEAD', 'get'],
      ['POST', 'post'],
      ['PUT', 'put'],
      ['DELETE', 'delete'],
      ['PATCH', 'patch'],
      ['OPTIONS', 'options'],
      ['PROPFIND', 'post_again'],
    ]) {
      expect(match(router, method!, '/s'), method).toEqual({ kind: 'match', route, params: {} });
    }
    expect(match(router, 'TRACE', '/s')).toEqual({
      kind: 'method-not-allowed',
      allowedMethods: ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'PROPFIND'],
    });
    expect(match(router, 'get', '/s').kind).toBe('method-not-allowed');
  });

  it('treats a path that matches no route as not found for any method', () => {
    const router = routerOf([['a', '/a', { methods: 'GET' }]]);
    for (const method of ['GET', 'POST', 'DELETE', 'OPTIONS', 'PROPFIND']) expect(match(router, method, '/zzz').kind).toBe('not-found');
  });
});

describe('trailing slash (redirect mode)', () => {
  const router = routerOf([
    ['no_slash', '/plain', { methods: ['GET', 'POST'] }],
    ['slash', '/dir/', { methods: ['GET', 'POST'] }],
  ]);

  // route with/without slash × request with/without × GET/POST
  it.each([
    ['GET', '/plain', { kind: 'match', route: 'no_slash', params: {} }],
    ['GET', '/plain/', { kind: 'redirect', route: 'no_slash', params: {}, path: '/plain', scheme: null }],
    ['GET', '/dir/', { kind: 'match', route: 'slash', params: {} }],
    ['GET', '/dir', { kind: 'redirect', route: 'slash', params: {}, path: '/dir/', scheme: null }],
    ['HEAD', '/dir', { kind: 'redirect', route: 'slash', params: {}, path: '/dir/', scheme: null }],
    ['POST', '/plain', { kind: 'match', route: 'no_slash', params: {} }],
    ['POST', '/plain/', { kind: 'not-found', path: '/plain/' }],
    ['POST', '/dir/', { kind: 'match', route: 'slash', params: {} }],
    ['POST', '/dir', { kind: 'not-found', path: '/dir' }],
  ] as const)('%s %s', (method, path, expected) => {
    expect(match(router, method, path)).toEqual(expected);
  });

  it('reports the toggled path in the inner message after a GET retry, the original for other methods', () => {
    expect(match(router, 'GET', '/robots.txt')).toEqual({ kind: 'not-found', path: '/robots.txt/' });
    expect(match(router, 'GET', '/nope/')).toEqual({ kind: 'not-found', path: '/nope' });
    expect(match(router, 'POST', '/robots.txt')).toEqual({ kind: 'not-found', path: '/robots.txt' });
    expect(match(router, 'GET', '/')).toEqual({ kind: 'not-found', path: '/' });
  });

  it('redirects to the toggled path still percent-encoded as received', () => {
    const r = routerOf([['cafe', '/café/:name/']]);
    expect(match(r, 'GET', '/caf%C3%A9/a%20b')).toEqual({
      kind: 'redirect',
      route: 'cafe',
      params: { name: 'a b' },
      path: '/caf%C3%A9/a%20b/',
      scheme: null,
    });
  });

  it('strips several trailing slashes', () => {
    expect(match(router, 'GET', '/plain///')).toMatchObject({ kind: 'redirect', path: '/plain' });
  });

  it('prefers a GET route matching after the toggle over a 405', () => {
    const postFirst = routerOf([
      ['post', '/foo', { methods: 'POST' }],
      ['get', '/foo/', { methods: 'GET' }],
    ]);
    expect(match(postFirst, 'GET', '/foo')).toMatchObject({ kind: 'redirect', route: 'get', path: '/foo/' });
    expect(match(postFirst, 'DELETE', '/foo')).toEqual({ kind: 'method-not-allowed', allowedMethods: ['POST'] });
  });

  it('redirects to a slash variant declared before an exact dynamic match (reference testFallbackPage)', () => {
    const r = routerOf([
      ['foo', '/foo/'],
      ['page', '/:name'],
    ]);
    expect(match(r, 'GET', '/foo')).toMatchObject({ kind: 'redirect', route: 'foo', path: '/foo/' });
    expect(match(r, 'GET', '/bar')).toMatchObject({ kind: 'match', route: 'page', params: { name: 'bar' } });
  });

  it('lets a trailing parameter keep the slash when its requirement allows it', () => {
    const r = routerOf([
      ['greedy', '/g/:a', { requirements: { a: '.+' } }],
      ['digits', '/d/:n', { requirements: { n: '\\d+' } }],
    ]);
    expect(match(r, 'GET', '/g/foo/')).toEqual({ kind: 'match', route: 'greedy', params: { a: 'foo/' } });
    expect(match(r, 'GET', '/d/123/')).toMatchObject({ kind: 'redirect', route: 'digits', path: '/d/123' });
  });

  it('combines a slash fix and a scheme fix in one redirect', () => {
    const r = routerOf([['secure', '/s/', { schemes: 'https' }]]);
    expect(match(r, 'GET', '/s', 'localhost', 'http')).toMatchObject({ kind: 'redirect', path: '/s/', scheme: 'https' });
    expect(match(r, 'GET', '/s/', 'localhost', 'http')).toMatchObject({ kind: 'redirect', path: '/s/', scheme: 'https' });
    expect(match(r, 'POST', '/s/', 'localhost', 'http')).toEqual({ kind: 'not-found', path: '/s/' });
  });
});

describe('trailing slash redirects answered from the first pass', () => {
  const rows: Array<[string, string, RouteOptions?]> = [
    ['item', '/items/:id', { methods: 'GET' }],
    ['dir', '/dir/'],
    ['secure', '/secure', { schemes: 'https' }],
    ['post_only', '/form', { methods: 'POST' }],
    ['form', '/form/', { methods: 'GET' }],
  ];
  const compiled = routerOf(rows);
  const reference = routerOf(rows, { generateCode: false });

  it.each([
    ['/items/7/', { kind: 'redirect', route: 'item', params: { id: '7' }, path: '/items/7', scheme: null }],
    ['/dir', { kind: 'redirect', route: 'dir', params: {}, path: '/dir/', scheme: null }],
    ['/form', { kind: 'redirect', route: 'form', params: {}, path: '/form/', scheme: null }],
    // An encoded slash ends the decoded path, not the raw one: toggling adds a slash after it.
    ['/items/7%2F', { kind: 'not-found', path: '/items/7%2F/' }],
    ['/items/7//', { kind: 'redirect', route: 'item', params: { id: '7' }, path: '/items/7', scheme: null }],
    ['/secure/', { kind: 'redirect', route: 'secure', params: {}, path: '/secure', scheme: 'https' }],
  ])("GET %s gives the reference loop's answer", (path, expected) => {
    expect(match(compiled, 'GET', path)).toEqual(expected);
    expect(match(reference, 'GET', path)).toEqual(expected);
  });
});

describe('trailing slash modes', () => {
  const rows = [
    ['no_slash', '/plain'],
    ['slash', '/dir/'],
  ] as const;

  it('strict: never matches across the slash and keeps the original path in the message', () => {
    const router = routerOf(rows, { trailingSlash: 'strict' });
    expect(match(router, 'GET', '/dir')).toEqual({ kind: 'not-found', path: '/dir' });
    expect(match(router, 'GET', '/plain/')).toEqual({ kind: 'not-found', path: '/plain/' });
    expect(match(router, 'GET', '/dir/')).toMatchObject({ kind: 'match', route: 'slash' });
  });

  it('ignore: matches either way without redirecting', () => {
    const router = routerOf(rows, { trailingSlash: 'ignore' });
    expect(match(router, 'GET', '/dir')).toMatchObject({ kind: 'match', route: 'slash' });
    expect(match(router, 'POST', '/plain/')).toMatchObject({ kind: 'match', route: 'no_slash' });
  });
});

describe('parameters, requirements and defaults', () => {
  it('captures parameters, percent-decoded once', () => {
    const router = routerOf([['file', '/files/:name']]);
    expect(match(router, 'GET', '/files/a%20b')).toMatchObject({ params: { name: 'a b' } });
    expect(match(router, 'GET', '/files/%2523')).toMatchObject({ params: { name: '%23' } });
    expect(match(router, 'GET', '/files/a+b')).toMatchObject({ params: { name: 'a+b' } });
  });

  it('decodes %2F before matching, so a one-segment parameter cannot contain it', () => {
    const router = routerOf([
      ['file', '/files/:name'],
      ['deep', '/files/*rest'],
    ]);
    expect(match(router, 'GET', '/files/a%2Fb')).toMatchObject({ route: 'deep', params: { rest: 'a/b' } });
  });

  it('matches unicode paths, raw or encoded', () => {
    const router = routerOf([['cafe', '/café/:drink']]);
    expect(match(router, 'GET', '/caf%C3%A9/th%C3%A9')).toMatchObject({ route: 'cafe', params: { drink: 'thé' } });
    expect(match(router, 'GET', '/café/😀')).toMatchObject({ route: 'cafe', params: { drink: '😀' } });
    // Characters, not bytes: a one-character requirement takes a two-byte UTF-8 character whole.
    const oneChar = routerOf([['letter', '/letter/:c', { requirements: { c: '.' } }]]);
    expect(match(oneChar, 'GET', '/letter/%C3%A9')).toMatchObject({ route: 'letter', params: { c: 'é' } });
  });

  it('throws MalformedPathError for malformed percent-encoding', () => {
    const router = routerOf([['any', '/*all']]);
    expect(() => router.matchPath('/a%zz', { method: 'GET', host: 'localhost', scheme: 'http' })).toThrow(MalformedPathError);
    expect(() => router.matchPath('/%FF', { method: 'GET', host: 'localhost', scheme: 'http' })).toThrow(MalformedPathError);
  });

  it('applies requirements and moves on to the next route when they fail', () => {
    const router = routerOf([
      ['num', '/post/:id', { requirements: { id: /^\d+$/ } }],
      ['slug', '/post/:slug', { requirements: { slug: '[a-z-]+' } }],
    ]);
    expect(match(router, 'GET', '/post/42')).toMatchObject({ route: 'num', params: { id: '42' } });
    expect(match(router, 'GET', '/post/hello-world')).toMatchObject({ route: 'slug' });
    expect(match(router, 'GET', '/post/NOPE').kind).toBe('not-found');
  });

  it('stops a default parameter before the next separator, as Symfony does', () => {
    const router = routerOf([['file', '/dl/:name.:ext']]);
    expect(match(router, 'GET', '/dl/report.pdf')).toMatchObject({ params: { name: 'report', ext: 'pdf' } });
    expect(match(router, 'GET', '/dl/report.tar.gz')).toMatchObject({ params: { name: 'report', ext: 'tar.gz' } });
  });

  it('fills optional parameters from defaults, and copies every default (objects too) into the params', () => {
    const guard = { roles: ['ROLE_ADMIN'] };
    const router = routerOf([['list', '/list{/:page}', { defaults: { page: '1', _is_granted: guard, _cache: { maxAgeSeconds: 60 } } }]]);
    const first = match(router, 'GET', '/list');
    expect(first).toMatchObject({ route: 'list', params: { page: '1', _cache: { maxAgeSeconds: 60 } } });
    expect(first.kind === 'match' && first.params['_is_granted']).toBe(guard);
    expect(match(router, 'GET', '/list/3')).toMatchObject({ params: { page: '3' } });
  });

  it('lets an empty capture override a default', () => {
    const router = routerOf([['b', '/en-en/:b', { requirements: { b: '.*' }, defaults: { b: 'x' } }]]);
    expect(match(router, 'GET', '/en-en/')).toEqual({ kind: 'match', route: 'b', params: { b: '' } });
  });

  it('matches path patterns case-sensitively', () => {
    const router = routerOf([['a', '/About']]);
    expect(match(router, 'GET', '/about').kind).toBe('not-found');
  });
});

describe('hosts and schemes', () => {
  it('matches host patterns case-insensitively and returns their parameters', () => {
    const router = routerOf([
      ['api', '/status', { host: ':version.api.example.com', requirements: { version: 'v\\d+' } }],
      ['other', '/status'],
    ]);
    expect(match(router, 'GET', '/status', 'v2.api.example.com')).toEqual({ kind: 'match', route: 'api', params: { version: 'v2' } });
    expect(match(router, 'GET', '/status', 'beta.api.example.com')).toMatchObject({ route: 'other' });
    expect(match(router, 'GET', '/status', 'localhost')).toMatchObject({ route: 'other' });
  });

  it('combines host and path parameters', () => {
    const router = routerOf([['item', '/items/:id', { host: ':tenant.example.com' }]]);
    expect(match(router, 'GET', '/items/5', 'acme.example.com')).toEqual({
      kind: 'match',
      route: 'item',
      params: { id: '5', tenant: 'acme' },
    });
    expect(match(router, 'GET', '/items/5', 'example.com').kind).toBe('not-found');
  });

  it('redirects GET to the required scheme and answers 404 to other methods', () => {
    const router = routerOf([['secure', '/login', { schemes: ['HTTPS'] }]]);
    expect(match(router, 'GET', '/login', 'localhost', 'https')).toMatchObject({ kind: 'match' });
    expect(match(router, 'GET', '/login', 'localhost', 'http')).toMatchObject({ kind: 'redirect', scheme: 'https', path: '/login' });
    expect(match(router, 'POST', '/login', 'localhost', 'http')).toEqual({ kind: 'not-found', path: '/login' });
  });
});

describe('mounted collections', () => {
  it('matches routes mounted under a prefix', async () => {
    const { RouteCollection, Router } = await import('../src/index.js');
    const profiler = new RouteCollection().add('_profiler_home', '/').add('_profiler', '/:token');
    const app = new RouteCollection().add('home', '/').mount('/_profiler', profiler);
    const router = new Router(app);
    expect(match(router, 'GET', '/_profiler/abc123')).toEqual({ kind: 'match', route: '_profiler', params: { token: 'abc123' } });
    expect(match(router, 'GET', '/_profiler/')).toMatchObject({ route: '_profiler_home' });
    expect(match(router, 'GET', '/')).toMatchObject({ route: 'home' });
  });
});

describe("shapes from Symfony's own test cases", () => {
  it('matches a path that opens with an optional group, and generates it with one slash', () => {
    const router = routerOf([['docs', '{/:lang}/docs']]);
    expect(match(router, 'GET', '/docs')).toEqual({ kind: 'match', route: 'docs', params: {} });
    expect(match(router, 'GET', '/en/docs')).toEqual({ kind: 'match', route: 'docs', params: { lang: 'en' } });
    expect(match(router, 'GET', '//docs')).toEqual({ kind: 'not-found', path: '//docs/' });
    expect(router.generate('docs', { lang: 'en' })).toBe('/en/docs');
    expect(router.generate('docs')).toBe('/docs');
  });

  it('matches a static path written with an escaped character', () => {
    const router = routerOf([
      ['batch', '/things\\:batchGet'],
      ['slashed', '/foo\\:bar/'],
    ]);
    expect(match(router, 'GET', '/things:batchGet')).toEqual({ kind: 'match', route: 'batch', params: {} });
    expect(match(router, 'GET', '/foo:bar/')).toEqual({ kind: 'match', route: 'slashed', params: {} });
    expect(match(router, 'GET', '/foo:bar')).toEqual({ kind: 'redirect', route: 'slashed', params: {}, path: '/foo:bar/', scheme: null });
    expect(router.generate('slashed')).toBe('/foo:bar/');
  });

  it('gives an empty last capture when its requirement allows it and the path ends with the slash', () => {
    for (const trailingSlash of ['redirect', 'strict', 'ignore'] as const) {
      const router = routerOf(
        [
          ['fr', '/fr-fr{/:a}', { requirements: { a: '.+' }, defaults: { a: 'aaa' } }],
          ['en', '/en-en{/:b}', { requirements: { b: '.*' }, defaults: { b: 'bbb' } }],
        ],
        { trailingSlash },
      );
      expect(match(router, 'GET', '/en-en/'), trailingSlash).toEqual({ kind: 'match', route: 'en', params: { b: '' } });
      expect(match(router, 'GET', '/en-en'), trailingSlash).toEqual({ kind: 'match', route: 'en', params: { b: 'bbb' } });
      expect(match(router, 'GET', '/en-en/BBB'), trailingSlash).toEqual({ kind: 'match', route: 'en', params: { b: 'BBB' } });
      expect(match(router, 'GET', '/fr-fr/AAA'), trailingSlash).toEqual({ kind: 'match', route: 'fr', params: { a: 'AAA' } });
    }
  });
});
