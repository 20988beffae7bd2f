import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Response } from '@switchboard/http-kernel';
import { createRequestListener } from '../src/index.js';
import { rawExchange } from '../../../test/kit/raw-http.js';
import { handlerRoutes, testKernel } from '../../../test/kit/index.js';

const BIG_CHUNK = new Uint8Array(64 * 1024).fill(97);

describe('response writing', () => {
  let chunksProduced = 0;
  let streamFinished = false;
  const { kernel, terminated } = testKernel({
    routes: handlerRoutes({
      '/multi': () => new Response('hello', 200, { 'set-cookie-like': ['a=1', 'b=2'], 'content-type': 'text/plain' }),
      '/bytes': () => new Response(new Uint8Array([104, 105]), 200),
      '/no-content': () => new Response('ignored', 204, { 'content-length': '7' }),
      '/not-modified': () => new Response('ignored', 304, { etag: '"x"' }),
      '/stream': () =>
        new Response(
          (async function* () {
            yield 'one,';
            yield new TextEncoder().encode('two,');
            yield 'three';
          })(),
          200,
          { 'content-type': 'text/plain' },
        ),
      '/endless': () =>
        new Response(
          (async function* () {
            try {
              // Bounded: 4096 × 64 KiB = 256 MiB, far more than a disconnecting client reads.
              for (let i = 0; i < 4096; i++) {
                chunksProduced++;
                yield BIG_CHUNK;
              }
            } finally {
              streamFinished = true;
            }
          })(),
        ),
      '/failing-stream': () =>
        new Response(
          (async function* () {
            yield 'partial';
            await new Promise((resolve) => setTimeout(resolve, 50));
            throw new Error('backend went away');
          })(),
        ),
      '/bad-header': () => new Response('x', 200, { 'x-bad': 'line\r\nbreak' }),
    }),
    recordTerminate: true,
  });
  const server = http.createServer(createRequestListener(kernel));
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

  it('writes multi-valued headers as separate lines with a Content-Length', async () => {
    const raw = await rawExchange(port, 'GET /multi HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n');
    expect(raw).toMatch(/\r\nset-cookie-like: a=1\r\nset-cookie-like: b=2\r\n/);
    expect(raw).toMatch(/\r\ncontent-length: 5\r\n/);
    expect(raw.endsWith('\r\n\r\nhello')).toBe(true);
  });

  it("writes the response's own Cache-Control once, though no listener sets it", async () => {
    const raw = await rawExchange(port, 'GET /bytes HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n');
    expect(raw.match(/\r\ncache-control: [^\r]*/gi)).toEqual(['\r\ncache-control: no-cache, private']);
  });

  it('writes bytes', async () => {
    const response = await fetch(`${base}/bytes`);
    expect(response.headers.get('content-length')).toBe('2');
    expect(await response.text()).toBe('hi');
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const raw = await rawExchange(port, 'HEAD /multi HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n');
    expect(raw).toMatch(/\r\ncontent-length: 5\r\n/);
    expect(raw.endsWith('\r\n\r\n')).toBe(true);
  });

  it('sends no body and no Content-Length with 204, no body with 304', async () => {
    const noContent = await rawExchange(port, 'GET /no-content HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n');
    expect(noContent).toMatch(/^HTTP\/1\.1 204/);
    expect(noContent.toLowerCase()).not.toContain('content-length');
    expect(noContent.endsWith('\r\n\r\n')).toBe(true);
    const notModified = await rawExchange(port, 'GET /not-modified HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n');
    expect(notModified).toMatch(/^HTTP\/1\.1 304/);
    expect(notModified.endsWith('\r\n\r\n')).toBe(true);
  });

  it('streams an async-iterable body of strings and bytes', async () => {
    const response = await fetch(`${base}/stream`);
    expect(await response.text()).toBe('one,two,three');
  });

  it('stops a stream when the client disconnects, without crashing, and terminates once', async () => {
    const before = terminated.length;
    await new Promise<void>((resolve, reject) => {
      const request = http.get(`${base}/endless`, (response) => {
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          // Read a little, then go away mid-response.
          if (received > 256 * 1024) request.destroy();
        });
        response.on('close', () => resolve());
      });
      request.on('error', (error) => ((error as NodeJS.ErrnoException).code === 'ECONNRESET' ? resolve() : reject(error)));
    });
    await expect.poll(() => terminated.length, { timeout: 5000 }).toBe(before + 1);
    await expect.poll(() => streamFinished, { timeout: 5000 }).toBe(true);
    // Backpressure held production near what the socket could take, far from all 4096 chunks.
    expect(chunksProduced).toBeLessThan(4096);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(terminated.length).toBe(before + 1);
    expect(terminated.at(-1)!.request.rawPath).toBe('/endless');
    // The kernel is told that the response never went out in full (metrics count it as aborted).
    expect(terminated.at(-1)!.responseFinished).toBe(false);
    // The server still answers.
    expect((await fetch(`${base}/bytes`)).status).toBe(200);
  });

  it('cuts the response short when the body stream fails after the headers', async () => {
    const raw = await rawExchange(port, 'GET /failing-stream HTTP/1.1\r\nHost: a\r\n\r\n');
    expect(raw).toMatch(/^HTTP\/1\.1 200/);
    expect(raw).toContain('partial');
    // Chunked encoding never got its terminating zero-length chunk.
    expect(raw.endsWith('0\r\n\r\n')).toBe(false);
  });

  it('answers a plain 500 when the response has a header Node refuses to send', async () => {
    const response = await fetch(`${base}/bad-header`);
    expect(response.status).toBe(500);
    expect(await response.text()).toContain('could not be written');
  });

  it('runs kernel.terminate once per request, after the response', async () => {
    const before = terminated.length;
    await (await fetch(`${base}/bytes`)).text();
    await expect.poll(() => terminated.length).toBe(before + 1);
    expect(terminated.at(-1)!.response.status).toBe(200);
    // Written in full: node said 'finish' before the response closed.
    expect(terminated.at(-1)!.responseFinished).toBe(true);
  });
});
