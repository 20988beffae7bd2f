import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonResponse, type Request } from '@switchboard/http-kernel';
import { createRequestListener, NodeRequestFactory, resolveAdapterOptions } from '../src/index.js';
import { rawExchange, statusOfRaw } from '../../../test/kit/raw-http.js';
import { handlerRoutes, testKernel } from '../../../test/kit/index.js';

function describeRequest(request: Request) {
  return new JsonResponse({
    method: request.method,
    scheme: request.scheme,
    host: request.host,
    port: request.port,
    rawPath: request.rawPath,
    query: request.queryString,
    url: request.url,
    clientIp: request.clientIp,
    protocolVersion: request.protocolVersion,
    accept: request.headers.getAll('accept'),
    hasBody: request.body !== null,
  });
}

async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

describe('request conversion (node:http → kernel Request)', () => {
  const { kernel } = testKernel({
    routes: handlerRoutes({ '/echo': describeRequest, '/a b': describeRequest, '//evil.example/x': describeRequest }),
    recordTerminate: true,
  });
  const server = http.createServer(createRequestListener(kernel));
  const trustingServer = http.createServer(createRequestListener(kernel, { trustedProxies: ['loopback'] }));
  const originServer = http.createServer(createRequestListener(kernel, { baseUrl: 'https://v2.api.example.com' }));
  let port = 0;
  let trustingPort = 0;
  let originPort = 0;

  beforeAll(async () => {
    port = await listen(server);
    trustingPort = await listen(trustingServer);
    originPort = await listen(originServer);
  });
  afterAll(() => {
    for (const s of [server, trustingServer, originServer]) s.close();
  });

  it('takes method, path, query, host, port, client and headers from the request', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/echo?x=1&x=2`, { headers: { accept: 'text/html' } });
    expect(await response.json()).toEqual({
      method: 'GET',
      scheme: 'http',
      host: '127.0.0.1',
      port,
      rawPath: '/echo',
      query: 'x=1&x=2',
      url: `http://127.0.0.1:${port}/echo`,
      clientIp: '127.0.0.1',
      protocolVersion: '1.1',
      accept: ['text/html'],
      hasBody: false,
    });
  });

  it('keeps the path percent-encoded and lower-cases the host, dropping a default port', async () => {
    const raw = await rawExchange(port, 'GET /a%20b HTTP/1.1\r\nHost: API.Example.COM\r\nConnection: close\r\n\r\n');
    const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
    expect(body).toMatchObject({ rawPath: '/a%20b', host: 'api.example.com', port: 80, url: 'http://api.example.com/a%20b' });
  });

  it("upper-cases the method of a request head that did not come through node's parser", () => {
    const factory = new NodeRequestFactory(resolveAdapterOptions({}));
    const request = factory.createFromHead(
      {
        method: 'patch',
        url: '/echo',
        httpVersion: '1.1',
        httpVersionMajor: 1,
        httpVersionMinor: 1,
        rawHeaders: ['Host', 'API.Example.COM'],
        socket: { remoteAddress: '127.0.0.1' },
      },
      null,
    );
    expect([request.method, request.host]).toEqual(['PATCH', 'api.example.com']);
  });

  it('keeps an IPv6 host in brackets', async () => {
    const raw = await rawExchange(port, 'GET /echo HTTP/1.1\r\nHost: [::1]:8080\r\nConnection: close\r\n\r\n');
    expect(raw).toContain('"host":"[::1]","port":8080');
  });

  it('keeps repeated headers as separate values', async () => {
    const raw = await rawExchange(
      port,
      'GET /echo HTTP/1.1\r\nHost: a\r\nAccept: text/html\r\nAccept: application/json\r\nConnection: close\r\n\r\n',
    );
    expect(raw).toContain('"accept":["text/html","application/json"]');
  });

  it('never takes the host from a request target starting with //', async () => {
    const raw = await rawExchange(port, 'GET //evil.example/x HTTP/1.1\r\nHost: good.example\r\nConnection: close\r\n\r\n');
    expect(statusOfRaw(raw)).toBe(200);
    expect(raw).toContain('"host":"good.example"');
    expect(raw).toContain('"rawPath":"//evil.example/x"');
  });

  it('takes only the path from an absolute-form target; the host stays the Host header', async () => {
    const raw = await rawExchange(port, 'GET http://evil.example/echo?q=1 HTTP/1.1\r\nHost: good.example\r\nConnection: close\r\n\r\n');
    expect(statusOfRaw(raw)).toBe(200);
    expect(raw).toContain('"host":"good.example"');
    expect(raw).toContain('"rawPath":"/echo","query":"q=1"');
  });

  it('answers 400 for an invalid Host header, before the kernel', async () => {
    const raw = await rawExchange(port, 'GET /echo HTTP/1.1\r\nHost: a b@evil\r\nConnection: close\r\n\r\n');
    expect(statusOfRaw(raw)).toBe(400);
    expect(raw).toContain('Host header is not a valid host');
  });

  it('ignores X-Forwarded-* from a peer that is not a trusted proxy', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/echo`, {
      headers: { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example' },
    });
    expect(await response.json()).toMatchObject({ clientIp: '127.0.0.1', scheme: 'http', host: '127.0.0.1' });
  });

  it('honours X-Forwarded-* from a trusted proxy, taking the right-most untrusted address as client', async () => {
    const response = await fetch(`http://127.0.0.1:${trustingPort}/echo`, {
      headers: {
        'x-forwarded-for': '198.51.100.1, 203.0.113.9, 127.0.0.2',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'V2.API.Example.com',
      },
    });
    expect(await response.json()).toMatchObject({
      clientIp: '203.0.113.9',
      scheme: 'https',
      host: 'v2.api.example.com',
      port: 443,
      url: 'https://v2.api.example.com/echo',
    });
  });

  it('uses the configured base URL as the public origin', async () => {
    const response = await fetch(`http://127.0.0.1:${originPort}/echo`);
    expect(await response.json()).toMatchObject({
      scheme: 'https',
      host: 'v2.api.example.com',
      port: 443,
      url: 'https://v2.api.example.com/echo',
    });
  });
});
