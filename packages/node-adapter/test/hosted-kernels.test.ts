import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryLogger, Response, type HttpKernelInterface, type Request } from '@switchboard/http-kernel';
import { createRequestListener } from '../src/index.js';

/** Any object with `handle` (and optionally `handleEagerly`) can be hosted; each way of answering or failing is served for real. */
describe('hosted kernels', () => {
  let server: http.Server | null = null;
  afterEach(() => {
    server?.close();
    server = null;
  });

  async function serve(kernel: HttpKernelInterface, logger = new MemoryLogger()): Promise<string> {
    server = http.createServer(createRequestListener(kernel, { logger }));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  const echo = (request: Request): Response => new Response(`${request.method} ${request.rawPath}`);

  it('answers through handle() alone', async () => {
    const base = await serve({ handle: async (request) => echo(request) });
    const response = await fetch(`${base}/promise`);
    expect([response.status, await response.text()]).toEqual([200, 'GET /promise']);
  });

  it('prefers handleEagerly(), whether it returns the response itself or a promise', async () => {
    const base = await serve({
      handle: async () => new Response('handle() was called', 500),
      handleEagerly: (request) => (request.rawPath === '/later' ? Promise.resolve(echo(request)) : echo(request)),
    });
    for (const path of ['/now', '/later']) {
      const response = await fetch(`${base}${path}`);
      expect([response.status, await response.text()]).toEqual([200, `GET ${path}`]);
    }
  });

  it('answers a plain 500 and logs CRITICAL when the kernel throws or rejects, and keeps serving', async () => {
    const logger = new MemoryLogger();
    const base = await serve(
      {
        handle: async () => {
          throw new Error('rejected');
        },
        handleEagerly: (request) => {
          if (request.rawPath === '/throws') throw new Error('thrown');
          if (request.rawPath === '/rejects') return Promise.reject(new Error('rejected'));
          return echo(request);
        },
      },
      logger,
    );
    for (const path of ['/throws', '/rejects']) {
      const response = await fetch(`${base}${path}`);
      expect([response.status, await response.text()]).toEqual([
        500,
        '500 Internal Server Error: The server could not answer this request.\n',
      ]);
    }
    expect(logger.records.filter((record) => record.level === 'CRITICAL').map((record) => record.message)).toEqual([
      'The kernel failed to answer: Error: thrown',
      'The kernel failed to answer: Error: rejected',
    ]);
    expect(await (await fetch(`${base}/still-up`)).text()).toBe('GET /still-up');
  });
});
