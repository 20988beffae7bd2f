import http from 'node:http';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonResponse, type Request } from '@switchboard/http-kernel';
import { createFetchHandler, createRequestListener, TrustedHosts, type NodeAdapterOptions } from '../src/index.js';
import { rawExchange, statusOfRaw } from '../../../test/kit/raw-http.js';
import { handlerRoutes, testKernel } from '../../../test/kit/index.js';

const describeRequest = (request: Request) =>
  new JsonResponse({ scheme: request.scheme, host: request.host, port: request.port, clientIp: request.clientIp });
const { kernel } = testKernel({ routes: handlerRoutes({ '/echo': describeRequest }) });

/** A node:http server with the adapter under `options`, on a free port of 127.0.0.1. */
async function listen(options: NodeAdapterOptions): Promise<{ port: number; close(): void }> {
  const server = http.createServer(createRequestListener(kernel, options));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, close: () => server.close() };
}

/** GET /echo over a raw socket with the given header lines; status and JSON body (if any). */
async function rawGet(port: number, headerLines: string[]): Promise<{ status: number; body: Record<string, unknown> | null; raw: string }> {
  const raw = await rawExchange(
    port,
    `GET /echo HTTP/1.1\r\n${headerLines.map((line) => `${line}\r\n`).join('')}Connection: close\r\n\r\n`,
  );
  const text = raw.slice(raw.indexOf('\r\n\r\n') + 4);
  return { status: statusOfRaw(raw), body: text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : null, raw };
}

describe('Host header', () => {
  let open: { port: number; close(): void };
  beforeAll(async () => {
    open = await listen({});
  });
  afterAll(() => open.close());

  it.each(['a%2eexample', 'a,b.example', 'a;b.example', "a'b.example", 'a(b).example', 'example.com:0', 'example.com:65536'])(
    'refuses %s with 400, with or without trusted hosts',
    async (host) => {
      const { status, raw } = await rawGet(open.port, [`Host: ${host}`]);
      expect(status).toBe(400);
      expect(raw).toContain('The Host header is not a valid host.');
    },
  );

  it('accepts a plain name, an IPv4 address and a bracketed IPv6 address with ports 1 and 65535', async () => {
    for (const [host, expected] of [
      ['api_1.example.com:1', { host: 'api_1.example.com', port: 1 }],
      ['10.0.0.1:65535', { host: '10.0.0.1', port: 65535 }],
      ['[::1]', { host: '[::1]', port: 80 }],
    ] as const) {
      expect((await rawGet(open.port, [`Host: ${host}`])).body).toMatchObject(expected);
    }
  });
});

describe('trusted hosts', () => {
  let server: { port: number; close(): void };
  beforeAll(async () => {
    server = await listen({ trustedHosts: ['api.example.com', '*.apps.example.com', '127.0.0.1', '[::1]', /tenant-\d+\.example\.org/] });
  });
  afterAll(() => server.close());

  it.each([
    'api.example.com',
    'API.Example.com:8443',
    'a.apps.example.com',
    'a.b.apps.example.com',
    '127.0.0.1:9',
    '[::1]:8080',
    'tenant-7.example.org',
  ])('serves %s', async (host) => {
    expect((await rawGet(server.port, [`Host: ${host}`])).status).toBe(200);
  });

  it.each([
    'evil.example',
    'apps.example.com',
    'api.example.com.evil.example',
    'evilapi.example.com',
    'x.tenant-7.example.org',
    'localhost',
  ])('refuses %s with 400 before the kernel', async (host) => {
    const { status, raw } = await rawGet(server.port, [`Host: ${host}`]);
    expect(status).toBe(400);
    expect(raw).toContain('The Host header names a host this server does not answer for.');
    expect(raw).not.toContain(host);
  });

  it('checks the host a trusted proxy forwards, not the proxy-facing Host', async () => {
    const proxied = await listen({ trustedHosts: ['api.example.com'], trustedProxies: ['loopback'] });
    try {
      expect((await rawGet(proxied.port, ['Host: 127.0.0.1', 'X-Forwarded-Host: api.example.com'])).status).toBe(200);
      expect((await rawGet(proxied.port, ['Host: api.example.com', 'X-Forwarded-Host: evil.example'])).status).toBe(400);
    } finally {
      proxied.close();
    }
  });

  it('checks the Host the client sent even when a base URL fixes the public origin', async () => {
    const fixed = await listen({ trustedHosts: ['api.example.com'], baseUrl: 'https://api.example.com' });
    try {
      expect((await rawGet(fixed.port, ['Host: api.example.com'])).body).toMatchObject({ host: 'api.example.com', scheme: 'https' });
      expect((await rawGet(fixed.port, ['Host: evil.example'])).status).toBe(400);
    } finally {
      fixed.close();
    }
  });

  it('is the same check in the fetch handler', async () => {
    const handler = createFetchHandler(kernel, { trustedHosts: ['api.example.com'] });
    expect((await handler(new globalThis.Request('http://api.example.com/echo'))).status).toBe(200);
    const refused = await handler(new globalThis.Request('http://evil.example/echo'));
    expect(refused.status).toBe(400);
    expect(await refused.text()).toBe('400 Bad Request: The Host header names a host this server does not answer for.\n');
  });

  it('refuses a pattern that is not a host at construction, and exports the check for other clients', () => {
    for (const pattern of ['https://api.example.com', 'api.example.com:443', 'api.example.com/x', 'a b', '*']) {
      expect(() => new TrustedHosts([pattern])).toThrow(TypeError);
    }
    const hosts = new TrustedHosts(['Example.COM.']);
    expect(hosts.allows('example.com')).toBe(true);
    expect(() => hosts.check('evil.example')).toThrow('does not answer for');
  });
});

describe('forwarded headers from trusted proxies', () => {
  let server: { port: number; close(): void };
  beforeAll(async () => {
    server = await listen({ trustedProxies: ['loopback', '10.0.0.0/8'] });
  });
  afterAll(() => server.close());

  it('takes proto and host from the proxy that met the client, not the left-most entries a client wrote', async () => {
    // The client sent the first entries of each header; the proxy appended one to each.
    const { body } = await rawGet(server.port, [
      'Host: internal:8000',
      'X-Forwarded-For: 198.51.100.7, 203.0.113.9',
      'X-Forwarded-Proto: http, https',
      'X-Forwarded-Host: evil.example, api.example.com',
      'X-Forwarded-Port: 1, 443',
    ]);
    expect(body).toEqual({ clientIp: '203.0.113.9', scheme: 'https', host: 'api.example.com', port: 443 });
  });

  it('walks back over trusted proxies: the outer proxy met the client, and its entries count', async () => {
    // 10.0.0.5 is the outer proxy (it met 203.0.113.9); the peer, 127.0.0.1, appended 10.0.0.5.
    const { body } = await rawGet(server.port, [
      'Host: internal:8000',
      'X-Forwarded-For: 198.51.100.7, 203.0.113.9, 10.0.0.5',
      'X-Forwarded-Proto: http, https, http',
      'X-Forwarded-Host: evil.example, api.example.com, internal',
    ]);
    expect(body).toMatchObject({ clientIp: '203.0.113.9', scheme: 'https', host: 'api.example.com' });
  });

  it('reads a header a proxy replaced (one entry for two hops) from its only entry', async () => {
    const { body } = await rawGet(server.port, [
      'Host: internal:8000',
      'X-Forwarded-For: 203.0.113.9, 10.0.0.5',
      'X-Forwarded-Proto: https',
    ]);
    expect(body).toMatchObject({ clientIp: '203.0.113.9', scheme: 'https' });
  });

  it.each(['0', '65536', '-1', '80a', '1e3'])('answers 400 for X-Forwarded-Port %s', async (port) => {
    const { status, raw } = await rawGet(server.port, ['Host: api.example.com', `X-Forwarded-Port: ${port}`]);
    expect(status).toBe(400);
    expect(raw).toContain('X-Forwarded-Port is not a port number from 1 to 65535.');
  });
});

describe('HTTP/2 :authority and Host', () => {
  let server: http2.Http2Server;
  let origin = '';
  beforeAll(async () => {
    server = http2.createServer(createRequestListener(kernel));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => server.close());

  /** One request with node:http2's client; status and body. */
  function h2Get(headers: Record<string, string>): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const client = http2.connect(origin);
      client.on('error', reject);
      const stream = client.request({ ':path': '/echo', ...headers });
      let status = 0;
      let body = '';
      stream.setEncoding('utf8');
      stream.on('response', (response) => (status = Number(response[':status'])));
      stream.on('data', (chunk: string) => (body += chunk));
      stream.on('end', () => {
        client.close();
        resolve({ status, body });
      });
      stream.on('error', reject);
    });
  }

  it('answers 400 when :authority and Host name different hosts', async () => {
    const { status, body } = await h2Get({ ':authority': 'api.example.com', host: 'evil.example' });
    expect(status).toBe(400);
    expect(body).toContain('two different hosts');
  });

  it('serves :authority with an equal Host, and either one alone', async () => {
    expect(JSON.parse((await h2Get({ ':authority': 'api.example.com', host: 'API.example.com' })).body)).toMatchObject({
      host: 'api.example.com',
    });
    expect(JSON.parse((await h2Get({ ':authority': 'api.example.com' })).body)).toMatchObject({ host: 'api.example.com' });
    expect(JSON.parse((await h2Get({ host: 'b.example.com' })).body)).toMatchObject({ host: 'b.example.com' });
  });
});
