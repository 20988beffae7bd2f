/**
 * The shared test kit does what its README says: the packages' tests lean on it, so a kit that
 * routed everything, swallowed errors or left servers open would make their assertions lie.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineController, MethodNotAllowedHttpError, Request, Response } from '@switchboard/http-kernel';
import type { DispatchTrace } from '@switchboard/http-kernel/tracing';
import { startHostServer } from './host-kernel.js';
import { bodyText, handlerRoutes, startTestServer, testKernel, type TestServer } from './index.js';
import { nodeHttpRequest, parseResponses } from './raw-http.js';

describe('testKernel with a route table', () => {
  const wired = testKernel({
    routes: {
      'GET /only-get': () => new Response('get'),
      '/any': () => new Response('any'),
      '/a b': () => new Response('spaced'),
      'GET /with-defaults': {
        name: 'named',
        defaults: { flag: 'on' },
        controller: defineController(
          ['request'],
          (request: Request) => new Response(`${request.attributes.get('_route')} ${request.attributes.get('flag')}`),
        ),
      },
      '/refuse': () => {
        throw new MethodNotAllowedHttpError(['GET', 'POST'], 'not this way');
      },
    },
  });
  const handle = (url: string, method = 'GET') => wired.kernel.handle(Request.fromUrl(url, { method }));

  it('routes exact paths, with or without a method, and paths holding spaces', async () => {
    expect(bodyText(await handle('http://localhost/only-get'))).toBe('get');
    expect(bodyText(await handle('http://localhost/any', 'DELETE'))).toBe('any');
    expect(bodyText(await handle('http://localhost/a%20b'))).toBe('spaced');
  });

  it('sets the route name and the route defaults as attributes', async () => {
    expect(bodyText(await handle('http://localhost/with-defaults'))).toBe('named on');
  });

  it('answers an unknown path, or a method a keyed route does not take, with a text 404 and records the error', async () => {
    const before = wired.errors.length;
    const wrongMethod = await handle('http://localhost/only-get?x=1', 'POST');
    expect(wrongMethod.status).toBe(404);
    expect(bodyText(wrongMethod)).toBe('404 No route found for "POST http://localhost/only-get"');
    expect(wrongMethod.headers.get('content-type')).toBe('text/plain; charset=UTF-8');
    expect((await handle('http://localhost/nowhere')).status).toBe(404);
    expect(wired.errors.length).toBe(before + 2);
    expect(wired.handled.at(-1)?.path).toBe('/nowhere');
  });

  it('keeps an HTTP error’s status and headers in the text answer', async () => {
    const response = await handle('http://localhost/refuse');
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, POST');
    expect(bodyText(response)).toBe('405 not this way');
  });

  it('hands handlers the request whatever their parameter is called', async () => {
    const kernel = testKernel({ routes: handlerRoutes({ '/echo': (incoming) => new Response(incoming.method) }) }).kernel;
    expect(bodyText(await kernel.handle(Request.fromUrl('http://localhost/echo', { method: 'PUT' })))).toBe('PUT');
  });
});

describe('startTestServer', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ routes: { '/hello': () => new Response('hello') }, recordTerminate: true });
  });
  afterAll(() => server.close());

  it('serves on 127.0.0.1 through the node adapter and reads the body as text', async () => {
    expect(server.origin).toBe(`http://127.0.0.1:${server.port}`);
    const response = await server.fetch('/hello');
    expect(response.status).toBe(200);
    expect(response.body).toBe('hello');
    // The adapter sets Date on what it writes; the kernel does not.
    expect(response.headers.get('date')).not.toBeNull();
  });

  it('records kernel.terminate once the response went out', async () => {
    const before = server.terminated.length;
    await server.fetch('/hello');
    await expect.poll(() => server.terminated.length, { timeout: 10_000, interval: 5 }).toBe(before + 1);
    expect(server.terminated.at(-1)?.request.path).toBe('/hello');
  });

  it('stops listening on close, and close can be called again', async () => {
    const other = await startTestServer({ routes: { '/': () => new Response('x') } });
    await other.close();
    await other.close();
    await expect(fetch(`${other.origin}/`)).rejects.toThrow();
  });
});

describe('startHostServer', () => {
  it('routes with the real router, answers errors with the real error listener and traces dispatches', async () => {
    const traces: DispatchTrace[] = [];
    const host = await startHostServer(
      { 'GET /items/:id': defineController(['id'], (id: string) => new Response(`item ${id}`)) },
      { tracer: (trace) => traces.push(trace) },
    );
    try {
      expect((await host.fetch('/items/7')).body).toBe('item 7');
      const refused = await host.fetch('/items/7', { method: 'DELETE', headers: { accept: 'application/json' } });
      expect(refused.status).toBe(405);
      expect(refused.headers.get('allow')).toBe('GET');
      expect(refused.headers.get('content-type')).toBe('application/problem+json');
      expect(refused.headers.get('cache-control')).toBe('no-cache, private');
      expect(traces.map((trace) => trace.eventName)).toContain('kernel.exception');
    } finally {
      await host.close();
    }
  });
});

describe('raw HTTP clients', () => {
  it('nodeHttpRequest sends the request target and the Host header as given', async () => {
    const server = await startTestServer({
      routes: handlerRoutes({ '/x/../y': (request) => new Response(`${request.rawPath} ${request.host}`) }),
    });
    try {
      const response = await nodeHttpRequest(server.origin, '/x/../y', { headers: { host: 'example.test' } });
      expect(response.body).toBe('/x/../y example.test');
    } finally {
      await server.close();
    }
  });

  it('parseResponses splits pipelined answers framed by length, chunks or no body, and keeps a truncated rest', () => {
    const raw =
      'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok' +
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-A: 1\r\nX-A: 2\r\n\r\n3\r\nabc\r\n0\r\n\r\n' +
      'HTTP/1.1 304 Not Modified\r\n\r\n' +
      'HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\ncut';
    const { responses, rest } = parseResponses(raw);
    expect(responses.map((response) => [response.status, response.body])).toEqual([
      [200, 'ok'],
      [200, 'abc'],
      [304, ''],
    ]);
    expect(responses[1]!.headers['x-a']).toBe('1, 2');
    expect(rest).toBe('HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\ncut');
  });
});
