import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonResponse, PayloadTooLargeHttpError, Response } from '@switchboard/http-kernel';
import { createRequestListener } from '../src/index.js';
import { rawExchange, rawExchangeDetailed, statusOfRaw } from '../../../test/kit/raw-http.js';
import { handlerRoutes, testKernel } from '../../../test/kit/index.js';

describe('request body', () => {
  let lazyCalls = 0;
  const { kernel } = testKernel({
    routes: handlerRoutes({
      '/echo': async (request) => new Response(request.body === null ? '(none)' : await request.body.text()),
      '/count': async (request) => {
        let chunks = 0;
        let bytes = 0;
        for await (const chunk of request.body!.stream()) {
          chunks++;
          bytes += chunk.byteLength;
        }
        return new JsonResponse({ chunks, bytes });
      },
      // Refuses on the declared length alone, as a payload step does, without touching the body.
      '/refuse': (request) => {
        if (Number(request.headers.get('content-length')) > 100) throw new PayloadTooLargeHttpError('Too large for this route.');
        return new Response('small enough');
      },
      '/accept': () => new Response('accepted unread'),
      '/ignore': () => {
        lazyCalls++;
        return new Response('not read');
      },
    }),
    recordTerminate: true,
  });
  const server = http.createServer(createRequestListener(kernel, { bodyLimit: 1000, bodyTimeout: 300 }));
  let base = '';
  let port = 0;

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(() => {
    server.close();
  });

  it('reads a body when asked, and a GET without one has none', async () => {
    expect(await (await fetch(`${base}/echo`, { method: 'POST', body: 'héllo' })).text()).toBe('héllo');
    expect(await (await fetch(`${base}/echo`)).text()).toBe('(none)');
  });

  it('streams a chunked body', async () => {
    const raw = await rawExchange(port, [
      'POST /count HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n',
      '5\r\nhello\r\n',
      '6\r\n world\r\n0\r\n\r\n',
    ]);
    expect(statusOfRaw(raw)).toBe(200);
    expect(raw).toContain('"bytes":11');
  });

  it('answers 413 when the declared length is over the limit, without reading it', async () => {
    const raw = await rawExchange(port, `POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5000\r\n\r\n${'x'.repeat(100)}`);
    expect(statusOfRaw(raw)).toBe(413);
    expect(raw).toContain('larger than the 1000 bytes allowed');
    expect(raw.toLowerCase()).toContain('connection: close');
  });

  it.each([
    ['a step refuses a body still arriving without reading it', '/refuse', 413],
    ['an answer leaves unread a body declared longer than the discard takes in', '/accept', 200],
  ])('says Connection: close, and closes, when %s', async (_case, path, status) => {
    const { received, closedByServer } = await rawExchangeDetailed(
      port,
      `POST ${path} HTTP/1.1\r\nHost: a\r\nContent-Length: 5000000\r\n\r\n`,
      { waitMs: 20_000 },
    );
    expect(statusOfRaw(received)).toBe(status);
    expect(received.toLowerCase()).toContain('connection: close');
    expect(received.toLowerCase()).not.toContain('keep-alive');
    expect(closedByServer).toBe(true);
  });

  it('answers 413 when a chunked body grows past the limit', async () => {
    const chunk = `200\r\n${'y'.repeat(0x200)}\r\n`;
    const raw = await rawExchange(port, ['POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n', chunk, chunk, chunk]);
    expect(statusOfRaw(raw)).toBe(413);
  });

  it('answers 408 when the body does not arrive in time, and closes the connection', async () => {
    const raw = await rawExchange(port, 'POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\nonly a part', { waitMs: 5000 });
    expect(statusOfRaw(raw)).toBe(408);
    expect(raw).toContain('not received within 300 ms');
    expect(raw.toLowerCase()).toContain('connection: close');
  });

  it('does not read a body nobody asked for', async () => {
    const response = await fetch(`${base}/ignore`, { method: 'POST', body: 'x'.repeat(5000) });
    expect(response.status).toBe(200);
    expect(lazyCalls).toBe(1);
  });
});
