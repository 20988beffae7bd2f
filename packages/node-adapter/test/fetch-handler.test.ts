import { describe, expect, it } from 'vitest';
import { JsonResponse, MemoryLogger, Response } from '@switchboard/http-kernel';
import { createFetchHandler, UNKNOWN_CLIENT_IP } from '../src/index.js';
import { shutDownFetchServer } from '../src/fetch.js';
import { handlerRoutes, testKernel } from '../../../test/kit/index.js';

describe('WHATWG fetch handler', () => {
  /** Steps the `/lazy` body's source has taken. */
  let lazySteps = 0;
  const { kernel, terminated } = testKernel({
    routes: handlerRoutes({
      '/echo': async (request) =>
        new JsonResponse({
          method: request.method,
          host: request.host,
          port: request.port,
          scheme: request.scheme,
          query: request.queryString,
          body: request.body === null ? null : await request.body.text(),
        }),
      '/client': (request) => new Response(request.clientIp),
      '/multi': () => new Response('x', 200, { 'x-multi': ['a', 'b'] }),
      '/text': () => new Response('x'),
      '/stream': () =>
        new Response(
          (async function* () {
            yield 'a';
            yield new Uint8Array([98]);
          })(),
        ),
      '/cancelled': () =>
        new Response(
          (async function* () {
            yield 'first';
            yield 'never read';
          })(),
        ),
      '/lazy': () =>
        new Response(
          (async function* () {
            lazySteps++;
            yield 'opened';
          })(),
        ),
    }),
    recordTerminate: true,
  });
  const handler = createFetchHandler(kernel, { bodyLimit: 10 });

  it('turns a fetch Request into a kernel request and back', async () => {
    const response = await handler(new Request('https://v2.api.example.com:8443/echo?x=1', { method: 'POST', body: 'hi' }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      method: 'POST',
      host: 'v2.api.example.com',
      port: 8443,
      scheme: 'https',
      query: 'x=1',
      body: 'hi',
    });
  });

  it('keeps multi-valued headers', async () => {
    const response = await handler(new Request('http://localhost/multi'));
    expect(response.headers.get('x-multi')).toBe('a, b');
  });

  it('streams an async-iterable body and terminates once it was read', async () => {
    const before = terminated.length;
    const response = await handler(new Request('http://localhost/stream'));
    expect(await response.text()).toBe('ab');
    await expect.poll(() => terminated.length).toBe(before + 1);
    expect(terminated.at(-1)!.responseFinished).toBe(true);
  });

  it('tells kernel.terminate that a streamed body was cancelled before its end, and nothing of a text body', async () => {
    // Found by path: a text body's termination runs on a timer, and may land during a later test.
    const terminationOf = async (path: string) => {
      await expect.poll(() => terminated.some(({ request }) => request.rawPath === path)).toBe(true);
      return terminated.find(({ request }) => request.rawPath === path)!;
    };
    const streamed = await handler(new Request('http://localhost/cancelled'));
    const reader = streamed.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    // What the runtime does when the client goes away mid-body.
    await reader.cancel();
    expect((await terminationOf('/cancelled')).responseFinished).toBe(false);
    await (await handler(new Request('http://localhost/text'))).text();
    // Handed to the runtime whole: whether it reached the client is not known here.
    expect((await terminationOf('/text')).responseFinished).toBe(undefined);
  });

  it('starts a streamed body only when its reader asks (a body nobody reads opens no file)', async () => {
    const response = await handler(new Request('http://localhost/lazy'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(lazySteps).toBe(0);
    expect(await response.text()).toBe('opened');
    expect(lazySteps).toBe(1);
  });

  it('answers 413 past the body limit and 404 for no route', async () => {
    const tooLarge = await handler(new Request('http://localhost/echo', { method: 'POST', body: 'x'.repeat(50) }));
    expect(tooLarge.status).toBe(413);
    expect((await handler(new Request('http://localhost/none'))).status).toBe(404);
  });

  it('answers 413 for a streamed body that grows past the limit, and cancels its source', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new TextEncoder().encode('xxxx'));
      },
      cancel() {
        cancelled = true;
      },
    });
    const response = await handler(new Request('http://localhost/echo', { method: 'POST', body, duplex: 'half' } as RequestInit));
    expect(response.status).toBe(413);
    expect(cancelled).toBe(true);
  });

  it('answers 408 for a streamed body that stops arriving', async () => {
    const slow = createFetchHandler(kernel, { bodyLimit: 10, bodyTimeout: 50 });
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('x'));
      },
    });
    const response = await slow(new Request('http://localhost/echo', { method: 'POST', body, duplex: 'half' } as RequestInit));
    expect(response.status).toBe(408);
  });

  it('gives a request without a client address the unspecified address, never loopback, and warns once', async () => {
    const logger = new MemoryLogger();
    const unknown = createFetchHandler(kernel, { logger, clientIp: (request) => request.headers.get('x-test-client') ?? undefined });
    const addresses: string[] = [];
    const clients: Array<Record<string, string>> = [{}, { 'x-test-client': '' }, { 'x-test-client': '203.0.113.7' }, {}];
    for (const headers of clients) {
      addresses.push(await (await unknown(new Request('http://localhost/client', { headers }))).text());
    }
    expect(UNKNOWN_CLIENT_IP).toBe('::');
    expect(addresses).toEqual(['::', '::', '203.0.113.7', '::']);
    expect(logger.records.filter((record) => record.level === 'WARNING').map((record) => record.message)).toEqual([
      'The fetch handler got no client address (pass its clientIp option); such requests have clientIp "::".',
    ]);
    expect(await (await handler(new Request('http://localhost/client'))).text()).toBe('::');
  });

  it('sends no body for HEAD', async () => {
    const response = await handler(new Request('http://localhost/multi', { method: 'HEAD' }));
    expect(response.body).toBeNull();
  });

  it('shuts down gracefully: new requests get 503, the one in flight finishes and terminates, then the server closes', async () => {
    const own = createFetchHandler(kernel);
    const inFlight = await own(new globalThis.Request('http://127.0.0.1/stream?in-flight'));
    const steps: string[] = [];
    const shutdown = shutDownFetchServer(own, { closeServer: () => steps.push('server closed') }).then((inTime) =>
      steps.push(`done ${inTime}`),
    );

    const refused = await own(new globalThis.Request('http://127.0.0.1/echo'));
    expect(refused.status).toBe(503);
    await new Promise((resolve) => setImmediate(resolve));
    expect(steps).toEqual([]);

    expect(await inFlight.text()).toBe('ab');
    await shutdown;
    // Earlier tests' requests may still be terminating: count the one in flight only.
    expect(terminated.filter(({ request }) => request.queryString === 'in-flight')).toHaveLength(1);
    expect(steps).toEqual(['server closed', 'done true']);
  });
});
