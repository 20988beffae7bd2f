import { afterEach, describe, expect, it, vi } from 'vitest';
import { httpDate } from '../src/http/http-date.js';
import {
  BadRequestHttpError,
  EventDispatcher,
  HeaderBag,
  HttpKernel,
  JsonResponse,
  Request,
  RequestType,
  Response,
  defineController,
  withoutStackTrace,
  type KernelEventMap,
  type RequestStack,
} from '../src/index.js';

describe('Request', () => {
  it('normalises method, host and scheme, and derives URLs with non-default ports only', () => {
    const request = new Request({
      method: 'post',
      scheme: 'https',
      host: 'V2.API.Example.com',
      port: 443,
      path: '/a%20b',
      query: 'x=1&x=2',
    });
    expect(request.method).toBe('POST');
    expect(request.host).toBe('v2.api.example.com');
    expect(request.url).toBe('https://v2.api.example.com/a%20b');
    expect(request.uri).toBe('https://v2.api.example.com/a%20b?x=1&x=2');
    expect(request.query.getAll('x')).toEqual(['1', '2']);
    const local = Request.fromUrl('http://127.0.0.1:8080/robots.txt');
    expect(local.url).toBe('http://127.0.0.1:8080/robots.txt');
    expect(local.httpHost).toBe('127.0.0.1:8080');
    // Mixed case anywhere in the word, non-letters, non-ASCII, and already-canonical input.
    const cases: Array<[string, string, string, string]> = [
      ['gEt', 'GET', 'API.example.COM', 'api.example.com'],
      ['m-search', 'M-SEARCH', 'ÉCOLE.example', 'école.example'],
      ['DELETE', 'DELETE', 'v2.api.example.com', 'v2.api.example.com'],
    ];
    for (const [method, canonicalMethod, host, canonicalHost] of cases) {
      const built = new Request({ method, host, path: '/' });
      expect([built.method, built.host]).toEqual([canonicalMethod, canonicalHost]);
    }
  });

  it('takes method and host as given when they are declared canonical already', () => {
    // Taken as they are, even when they are not: the flag is the caller's promise, not a check.
    const built = new Request({ method: 'get', host: 'Example.COM', path: '/', canonicalCase: true });
    expect([built.method, built.host]).toEqual(['get', 'Example.COM']);
    expect(new Request({ method: 'GET', path: '/', canonicalCase: true }).host).toBe('localhost');
    // A copy keeps its parent's values; a method given anew is upper-cased all the same.
    const parent = new Request({ method: 'post', host: 'API.example.com', path: '/' });
    expect([parent.duplicate().method, parent.duplicate().host]).toEqual(['POST', 'api.example.com']);
    expect(parent.duplicate({ method: 'patch' }).method).toBe('PATCH');
  });

  it('decodes the path once, keeps + and raw encoding, and treats an empty path as /', () => {
    const request = new Request({ method: 'GET', path: '/caf%C3%A9/a+b/%2523' });
    expect(request.path).toBe('/café/a+b/%23');
    expect(request.rawPath).toBe('/caf%C3%A9/a+b/%2523');
    expect(new Request({ method: 'GET', path: '' }).rawPath).toBe('/');
  });

  it('answers malformed percent-encoding and non-UTF-8 bytes with a 400', () => {
    for (const path of ['/%E0%A4%A', '/%zz', '/%FF']) {
      const request = new Request({ method: 'GET', path });
      expect(() => request.path).toThrow(BadRequestHttpError);
    }
  });

  it('duplicates for a sub-request with new attributes, same headers, body and stack', () => {
    const request = Request.fromUrl('http://localhost/x?q=1', { headers: { Accept: 'text/html' } });
    request.attributes.set('_route', 'x');
    request.locale = 'fr';
    const sub = request.duplicate({ method: 'GET', attributes: [['exception', 'boom']] });
    expect(sub.attributes.has('_route')).toBe(false);
    expect(sub.attributes.get('exception')).toBe('boom');
    expect(sub.headers.get('accept')).toBe('text/html');
    expect(sub.queryString).toBe('q=1');
    expect(sub.locale).toBe('fr');
    sub.headers.set('accept', 'application/json');
    expect(request.headers.get('accept')).toBe('text/html');
  });
});

describe('AttributeBag.setPairs', () => {
  it('sets every pair into an empty bag, a bag with other keys and a bag holding some of them, never changing the list', () => {
    const pairs = ['_route', 'hello', '_route_path', '/hello'];
    const empty = new Request({ method: 'GET', path: '/' }).attributes.setPairs(pairs);
    expect(empty.all()).toEqual({ _route: 'hello', _route_path: '/hello' });
    empty.set('_route', 'changed');
    expect(empty.get('_route')).toBe('changed');
    expect(pairs).toEqual(['_route', 'hello', '_route_path', '/hello']);
    const deleting = new Request({ method: 'GET', path: '/' }).attributes.setPairs(pairs).delete('_route').set('x', 1);
    expect(deleting.all()).toEqual({ _route_path: '/hello', x: 1 });
    expect(pairs).toEqual(['_route', 'hello', '_route_path', '/hello']);

    const others = new Request({ method: 'GET', path: '/', attributes: [['_request_id', 'r1']] }).attributes.setPairs(pairs);
    expect([...others.keys()]).toEqual(['_request_id', '_route', '_route_path']);
    expect(others.get('_route_path')).toBe('/hello');

    const overlapping = new Request({
      method: 'GET',
      path: '/',
      attributes: [
        ['_route', 'old'],
        ['x', 1],
      ],
    }).attributes.setPairs(pairs);
    expect([...overlapping.entries()]).toEqual([
      ['_route', 'hello'],
      ['x', 1],
      ['_route_path', '/hello'],
    ]);
  });
});

describe('Request stack made on demand', () => {
  it('makes a main request its stack only when asked: the request at the bottom while handled, empty after', async () => {
    const dispatcher = new EventDispatcher<KernelEventMap>();
    const seen: Array<[RequestStack | null, number | undefined]> = [];
    dispatcher.on('kernel.request', (event) => {
      seen.push([event.request.existingRequestStack, undefined]);
      if (event.request.headers.has('x-ask'))
        seen.push([event.requestStack, event.requestStack?.getMainRequest() === event.request ? 1 : 0]);
      event.setResponse(new Response('ok'));
    });
    const kernel = new HttpKernel({ dispatcher });
    const quiet = Request.fromUrl('http://localhost/');
    await kernel.handle(quiet);
    expect(seen).toEqual([[null, undefined]]);
    expect(quiet.existingRequestStack).toBeNull();
    expect(quiet.requestStack?.size).toBe(0);

    const asking = Request.fromUrl('http://localhost/', { headers: { 'x-ask': '1' } });
    await kernel.handle(asking);
    expect(seen[2]![1]).toBe(1);
    expect(asking.existingRequestStack).toBe(seen[2]![0]);
    expect(asking.requestStack?.size).toBe(0);
  });

  it('names the request a copy was made from, through copies of copies, without making a stack', () => {
    const main = Request.fromUrl('http://localhost/');
    const copy = main.duplicate();
    const copyOfCopy = copy.duplicate();
    expect(main.originalRequest).toBe(main);
    expect(copy.originalRequest).toBe(main);
    expect(copyOfCopy.originalRequest).toBe(main);
    expect(copyOfCopy.existingRequestStack).toBeNull();
  });

  it('makes no stack for a chain nobody asks about, sub-requests included', async () => {
    const kernel = new HttpKernel({ dispatcher: new EventDispatcher<KernelEventMap>() });
    let sub: Request | null = null;
    const main = Request.fromUrl('http://localhost/', {
      attributes: [
        [
          '_controller',
          defineController(['request'], async (request: Request) => {
            sub = request.duplicate({ attributes: [['_controller', () => new Response('sub')]] });
            const inner = await kernel.handle(sub, RequestType.SUB);
            return new Response(`main wraps ${String(inner.body)}`);
          }),
        ],
      ],
    });
    expect((await kernel.handle(main)).body).toBe('main wraps sub');
    expect([main.existingRequestStack, sub!.existingRequestStack]).toEqual([null, null]);
    // Asked afterwards: one stack for the chain, empty.
    expect(sub!.requestStack).toBe(main.requestStack);
    expect(main.requestStack?.size).toBe(0);
  });

  it('puts a sub-request handled before the stack was made on top of it, whichever request asks', async () => {
    const kernel = new HttpKernel({ dispatcher: new EventDispatcher<KernelEventMap>() });
    const seen: unknown[] = [];
    const main = Request.fromUrl('http://localhost/', {
      attributes: [
        [
          '_controller',
          defineController(['request'], async (request: Request) => {
            const sub = request.duplicate({
              attributes: [
                [
                  '_controller',
                  // The parent asks, not the sub-request itself.
                  () => {
                    const stack = main.requestStack!;
                    seen.push(stack.size, stack.getCurrentRequest() === sub, stack.getParentRequest() === main);
                    return new Response('sub');
                  },
                ],
              ],
            });
            await kernel.handle(sub, RequestType.SUB);
            seen.push(request.requestStack?.getCurrentRequest() === main, request.requestStack === sub.requestStack);
            return new Response('main');
          }),
        ],
      ],
    });
    await kernel.handle(main);
    expect(seen).toEqual([2, true, true, true, true]);
    expect(main.requestStack?.size).toBe(0);
  });

  it('keeps the stack balanced when sub-requests of one request run at once and one of them makes it', async () => {
    const kernel = new HttpKernel({ dispatcher: new EventDispatcher<KernelEventMap>() });
    const sizes: number[] = [];
    const later = (asks: boolean) => async (request: Request) => {
      await new Promise((resolve) => setImmediate(resolve));
      if (asks) sizes.push(request.requestStack!.size);
      return new Response('sub');
    };
    const main = Request.fromUrl('http://localhost/', {
      attributes: [
        [
          '_controller',
          defineController(['request'], async (request: Request) => {
            const subs = [false, true, false].map((asks) =>
              request.duplicate({ attributes: [['_controller', defineController(['request'], later(asks))]] }),
            );
            await Promise.all(subs.map((sub) => kernel.handle(sub, RequestType.SUB)));
            sizes.push(request.requestStack!.size);
            return new Response('main');
          }),
        ],
      ],
    });
    await kernel.handle(main);
    // The asking sub-request is on the stack with the main request and the copy handled last.
    expect(sizes).toEqual([3, 1]);
    expect(main.requestStack?.size).toBe(0);
  });

  it('says a request is finishing from the start of its kernel.finish_request until the kernel lets it go', async () => {
    const dispatcher = new EventDispatcher<KernelEventMap>();
    const seen: Array<[string, boolean]> = [];
    dispatcher.on('kernel.request', (event) => {
      seen.push(['request', event.request.isFinishing]);
    });
    dispatcher.on(
      'kernel.finish_request',
      (event) => {
        seen.push(['finish_request', event.request.isFinishing]);
      },
      2048,
    );
    const request = Request.fromUrl('http://localhost/', { attributes: [['_controller', () => new Response('ok')]] });
    await new HttpKernel({ dispatcher }).handle(request);
    expect(seen).toEqual([
      ['request', false],
      ['finish_request', true],
    ]);
    expect(request.isFinishing).toBe(false);
  });
});

describe('HeaderBag', () => {
  it('is case-insensitive and multi-valued', () => {
    const headers = new HeaderBag({ 'Set-Thing': ['a', 'b'], 'Content-Length': 3 });
    headers.append('set-thing', 'c');
    expect(headers.getAll('SET-THING')).toEqual(['a', 'b', 'c']);
    expect(headers.get('content-length')).toBe('3');
    expect(headers.toObject()).toEqual({ 'set-thing': ['a', 'b', 'c'], 'content-length': '3' });
    headers.delete('Set-Thing');
    expect(headers.has('set-thing')).toBe(false);
  });

  it("keeps a name's values together in the order names were first added, and writes them as one flat list", () => {
    const headers = new HeaderBag().set('date', 'd').append('vary', 'Accept').set('content-type', 'text/plain');
    headers.append('Vary', 'Origin').set('date', 'e');
    expect(headers.toRawList()).toEqual(['date', 'e', 'vary', 'Accept', 'vary', 'Origin', 'content-type', 'text/plain']);
    expect([...headers]).toEqual([
      ['date', ['e']],
      ['vary', ['Accept', 'Origin']],
      ['content-type', ['text/plain']],
    ]);
    expect(headers.size).toBe(3);
    expect(headers.names()).toEqual(['date', 'vary', 'content-type']);
    expect(headers.toRawList(new Set(['vary']), 'content-length', '4')).toEqual([
      'date',
      'e',
      'content-type',
      'text/plain',
      'content-length',
      '4',
    ]);
    headers.set('vary', ['A', 'B']);
    expect(headers.getAll('vary')).toEqual(['A', 'B']);
    expect(headers.toRawList()).toEqual(['date', 'e', 'vary', 'A', 'vary', 'B', 'content-type', 'text/plain']);
  });

  it('gives its own list to send, content-length set in it, unless the list holds a header to leave out', () => {
    const headers = new HeaderBag().set('date', 'd').set('content-length', '99');
    const sent = headers.toSentList(new Set(['transfer-encoding', 'content-length']), 'content-length', '4');
    expect(sent).toEqual(['date', 'd', 'content-length', '4']);
    expect(headers.get('content-length')).toBe('4');
    // The same list again: no copy while nothing is left out.
    expect(headers.toSentList(new Set(['transfer-encoding']))).toBe(sent);
    headers.set('transfer-encoding', 'chunked');
    const copy = headers.toSentList(new Set(['transfer-encoding', 'content-length']), 'content-length', '5');
    expect(copy).toEqual(['date', 'd', 'content-length', '5']);
    expect(copy).not.toBe(sent);
    expect(headers.get('transfer-encoding')).toBe('chunked');
  });

  it('adds content-length to the list it sends and keeps that list, the header included', () => {
    const headers = new HeaderBag().set('date', 'd').set('content-type', 'text/plain');
    const sent = headers.toSentList(new Set(['transfer-encoding', 'content-length']), 'content-length', '4');
    expect(sent).toEqual(['date', 'd', 'content-type', 'text/plain', 'content-length', '4']);
    expect(headers.get('content-length')).toBe('4');
    expect(headers.toSentList(new Set(['transfer-encoding']))).toBe(sent);
  });

  it('reads a raw list on first use: names folded, repeats kept in order, pseudo-headers left out', () => {
    const raw = [':authority', 'a.example', 'Host', 'a.example', 'X-Tag', 'one', 'x-tag', 'two', 'Accept', '*/*'];
    const headers = HeaderBag.fromRawList(raw);
    expect(headers.names()).toEqual(['host', 'x-tag', 'accept']);
    expect(headers.getAll('X-TAG')).toEqual(['one', 'two']);
    expect(raw).toHaveLength(10);
    // Writes and copies see the raw headers too, whichever comes first.
    const written = HeaderBag.fromRawList(raw).set('accept', 'text/html');
    expect(written.get('accept')).toBe('text/html');
    expect(written.get('host')).toBe('a.example');
    expect(new HeaderBag(HeaderBag.fromRawList(raw)).toObject()).toEqual({ host: 'a.example', 'x-tag': ['one', 'two'], accept: '*/*' });
    expect([...HeaderBag.fromRawList(raw)].map(([name]) => name)).toEqual(['host', 'x-tag', 'accept']);
  });

  it('answers get, getAll and has on a raw list it has not read yet as it does once read', () => {
    const raw = [':authority', 'a.example', 'Host', 'a.example', 'X-Tag', 'one', 'x-tag', 'two', 'Accept', '*/*'];
    const unread = (): HeaderBag => HeaderBag.fromRawList(raw);
    const read = HeaderBag.fromRawList(raw);
    read.names();
    for (const bag of [unread(), read]) {
      expect(bag.get('X-TAG')).toBe('one');
      expect(bag.getAll('X-TAG')).toEqual(['one', 'two']);
      expect(bag.getAll(':authority')).toEqual([]);
      expect(bag.getAll('x-ta')).toEqual([]);
      expect(bag.get('accept')).toBe('*/*');
      expect(bag.has('HOST')).toBe(true);
      expect(bag.get(':authority')).toBeUndefined();
      expect(bag.has(':authority')).toBe(false);
      expect(bag.get('x-ta')).toBeUndefined();
      expect(bag.has('referer')).toBe(false);
    }
    // Reading leaves the bag as it was: a write afterwards still sees every header.
    const bag = unread();
    expect(bag.get('x-tag')).toBe('one');
    expect(bag.append('x-tag', 'three').getAll('x-tag')).toEqual(['one', 'two', 'three']);
  });

  it('keeps a copy independent of its original, both ways, whether the original was read, changed or neither', () => {
    const raw = ['Host', 'a.example', 'Accept', '*/*'];
    const unread = HeaderBag.fromRawList(raw);
    const read = HeaderBag.fromRawList(raw);
    expect(read.get('accept')).toBe('*/*');
    const changed = HeaderBag.fromRawList(raw).append('Accept', 'text/html');

    const copies = [unread, read, changed].map((bag) => new HeaderBag(bag));
    for (const copy of copies) copy.set('host', 'b.example').append('x-copy', '1');
    for (const original of [unread, read, changed]) original.delete('accept');

    expect(copies.map((copy) => copy.toObject())).toEqual([
      { host: 'b.example', accept: '*/*', 'x-copy': '1' },
      { host: 'b.example', accept: '*/*', 'x-copy': '1' },
      { host: 'b.example', accept: ['*/*', 'text/html'], 'x-copy': '1' },
    ]);
    expect([unread, read, changed].map((bag) => bag.toObject())).toEqual([
      { host: 'a.example' },
      { host: 'a.example' },
      { host: 'a.example' },
    ]);
    // A copy of a copy that was never changed still reads the raw list.
    expect(new HeaderBag(new HeaderBag(HeaderBag.fromRawList(raw))).get('HOST')).toBe('a.example');
    expect(new HeaderBag(new HeaderBag()).size).toBe(0);
  });
});

describe('httpDate', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("keeps the current second's date and moves on at the next second", async () => {
    // A fresh module instance under a fake clock: its cache starts empty and its timer is fake.
    vi.useFakeTimers({ now: Date.UTC(2026, 0, 1, 0, 0, 0, 400) });
    vi.resetModules();
    const fresh = await import('../src/http/http-date.js');
    expect(fresh.httpDate()).toBe('Thu, 01 Jan 2026 00:00:00 GMT');
    vi.advanceTimersByTime(599);
    expect(fresh.httpDate()).toBe('Thu, 01 Jan 2026 00:00:00 GMT');
    vi.advanceTimersByTime(1);
    expect(fresh.httpDate()).toBe('Thu, 01 Jan 2026 00:00:01 GMT');
  });
});

describe('Response', () => {
  it('carries a Date header in IMF-fixdate form from construction', () => {
    const response = new Response('x', 201);
    expect(response.headers.get('date')).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    expect(httpDate(Date.UTC(1994, 10, 6, 8, 49, 37))).toBe('Sun, 06 Nov 1994 08:49:37 GMT');

    expect(new Response(null, 304).isEmpty).toBe(true);
    // A Date given by the caller is kept.
    expect(new Response('x', 200, { Date: 'Sun, 06 Nov 1994 08:49:37 GMT' }).headers.getAll('date')).toEqual([
      'Sun, 06 Nov 1994 08:49:37 GMT',
    ]);
  });

  it("keeps a JSON response's data until its body is read, so a kernel.response listener can change it", async () => {
    const dispatcher = new EventDispatcher<KernelEventMap>();
    const data = { id: 1, secret: 's' };
    dispatcher.on('kernel.response', (event) => {
      const response = event.response as JsonResponse;
      expect(response.data).toBe(data);
      response.data = { id: (response.data as typeof data).id };
    });
    dispatcher.on('kernel.request', (event) => event.setResponse(new JsonResponse(data)));
    const response = await new HttpKernel({ dispatcher }).handle(Request.fromUrl('http://localhost/'));
    expect(response.body).toBe('{"id":1}');
    expect(response.headers.get('content-type')).toBe('application/json');
    const replaced = new JsonResponse([1]);
    replaced.body = 'text';
    expect(replaced.body).toBe('text');
    expect(replaced.writtenFromData).toBe(false);
    // A body set to nothing stays nothing: it is not written from the data again.
    replaced.body = null;
    expect(replaced.body).toBeNull();
    replaced.data = [2];
    expect([replaced.body, replaced.writtenFromData]).toEqual(['[2]', true]);
  });
});

describe('withoutStackTrace', () => {
  it('builds errors without stack traces, and restores Error.stackTraceLimit however the build ends', () => {
    const limit = Error.stackTraceLimit;
    const quiet = withoutStackTrace(() => new BadRequestHttpError('quiet', { cause: new Error('cause') }));
    expect(quiet.stack).toBe('BadRequestHttpError: quiet');
    expect((quiet.cause as Error).stack).toBe('Error: cause');
    expect(Error.stackTraceLimit).toBe(limit);
    expect(() =>
      withoutStackTrace(() => {
        throw new Error('the build failed');
      }),
    ).toThrow('the build failed');
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new BadRequestHttpError('full').stack).toContain('\n    at ');
  });
});
