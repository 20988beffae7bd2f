import http from 'node:http';
import type { AddressInfo } from 'node:net';
import connect from 'connect';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Response } from '@switchboard/http-kernel';
import { createMiddleware } from '../src/index.js';
import { handlerRoutes, testKernel } from '../../../test/kit/index.js';

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('Express and Connect middleware', () => {
  const { kernel, terminated } = testKernel({
    routes: handlerRoutes({
      '/kernel': (request) => new Response(`kernel saw ${request.method} ${request.rawPath}`),
      '/broken': () => {
        throw new Error('controller failure');
      },
    }),
    recordTerminate: true,
  });
  const expressAnswering = express();
  expressAnswering.use(createMiddleware(kernel));

  const expressFallThrough = express();
  expressFallThrough.use(createMiddleware(kernel, { fallThrough: true }));
  expressFallThrough.get('/express-only', (_req, res) => {
    res.type('text/plain').send('express answered');
  });

  const connectFallThrough = connect();
  connectFallThrough.use(createMiddleware(kernel, { fallThrough: true }));
  connectFallThrough.use((_req: http.IncomingMessage, res: http.ServerResponse) => {
    res.statusCode = 418;
    res.end('connect answered');
  });

  const servers = [expressAnswering, expressFallThrough, connectFallThrough].map((app) => http.createServer(app));
  let urls: string[] = [];

  beforeAll(async () => {
    urls = await Promise.all(servers.map(listen));
  });
  afterAll(() => {
    for (const server of servers) server.close();
  });

  it('answers matched requests from the kernel', async () => {
    for (const url of urls) {
      const response = await fetch(`${url}/kernel`);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe('kernel saw GET /kernel');
    }
  });

  it('answers unmatched requests with the kernel 404 by default', async () => {
    const response = await fetch(`${urls[0]}/express-only`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('No route found');
  });

  it('hands unmatched requests to next() with fallThrough (Express)', async () => {
    const response = await fetch(`${urls[1]}/express-only`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('express answered');
  });

  it('hands unmatched requests to next() with fallThrough (Connect)', async () => {
    const response = await fetch(`${urls[2]}/nowhere`);
    expect(response.status).toBe(418);
    expect(await response.text()).toBe('connect answered');
  });

  it('still answers errors of matched routes itself with fallThrough', async () => {
    const response = await fetch(`${urls[1]}/broken`);
    expect(response.status).toBe(500);
    expect(await response.text()).toContain('controller failure');
  });

  it('runs kernel.terminate for requests handed back too', async () => {
    const before = terminated.length;
    await (await fetch(`${urls[1]}/express-only`)).text();
    await expect.poll(() => terminated.length).toBe(before + 1);
  });
});
