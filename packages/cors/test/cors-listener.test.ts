import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonResponse, Response } from '@switchboard/http-kernel';
import { CorsListener } from '../src/index.js';
import { startTestServer, type TestServer } from '../../../test/kit/index.js';
import { nodeHttpRequest, type NodeHttpResponse } from '../../../test/kit/raw-http.js';

type Answer = NodeHttpResponse;

/** node:http, so raw header values (spaces, several Origin headers) reach the server unchanged. */
function send(base: string, method: string, path: string, headers: Array<[string, string]> = [], body?: string): Promise<Answer> {
  const grouped: Record<string, string[]> = {};
  for (const [name, value] of headers) (grouped[name] ??= []).push(value);
  return nodeHttpRequest(base, path, { method, headers: grouped, ...(body === undefined ? {} : { body }) });
}

const ALLOWED = 'http://localhost:5173';
const calls: string[] = [];
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    subscribers: [
      new CorsListener({
        allowHeaders: ['content-type', 'authorization', 'x-custom'],
        exposeHeaders: ['X-Request-Id'],
        maxAgeSeconds: 3600,
        paths: [
          { prefix: '/private', allowOrigins: [] },
          { prefix: '/partner', allowOrigins: ['https://partner.example'], allowCredentials: true, allowMethods: ['GET', 'patch'] },
        ],
      }),
    ],
    routes: {
      'GET /api/items': () => {
        calls.push('list');
        return new JsonResponse([{ id: 1 }], 200, { 'x-request-id': 'r1' });
      },
      'POST /api/items': () => {
        calls.push('create');
        return new JsonResponse({ id: 2 }, 201);
      },
      'GET /private/data': () => new JsonResponse({ secret: false }),
      'GET /partner/feed': () => new JsonResponse([]),
      'GET /public': () => new Response('cached', 200, { 'cache-control': 'public, max-age=60' }),
    },
  });
});
afterAll(() => server.close());

function preflight(path: string, origin: string, method = 'POST', requestHeaders?: string): Promise<Answer> {
  const headers: Array<[string, string]> = [
    ['origin', origin],
    ['access-control-request-method', method],
  ];
  if (requestHeaders !== undefined) headers.push(['access-control-request-headers', requestHeaders]);
  return send(server.origin, 'OPTIONS', path, headers);
}

const corsHeaderNames = (answer: Answer) => Object.keys(answer.headers).filter((name) => name.startsWith('access-control-'));

describe('preflight (kernel.request 250, before routing)', () => {
  it('answers an allowed origin with the exact origin, methods, headers and max-age', async () => {
    const answer = await preflight('/api/items', ALLOWED, 'POST', 'Content-Type, X-Custom');
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('');
    expect(answer.headers.vary).toBe('Origin');
    expect(answer.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(answer.headers['access-control-allow-methods']).toBe('GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
    expect(answer.headers['access-control-allow-headers']).toBe('content-type, authorization, x-custom');
    expect(answer.headers['access-control-max-age']).toBe('3600');
    expect(answer.headers['access-control-allow-credentials']).toBeUndefined();
    expect(calls).toEqual([]);
  });

  it('answers a path with no route too, instead of 404', async () => {
    const answer = await preflight('/no/such/path', ALLOWED);
    expect(answer.status).toBe(200);
    expect(answer.headers['access-control-allow-origin']).toBe(ALLOWED);
  });

  it('gives a refused origin 200 with Vary: Origin and no Access-Control-Allow-* header', async () => {
    for (const origin of ['http://localhost.evil.com', 'null', 'http://127.0.0.2:5173', 'http://[::1]:5173']) {
      const answer = await preflight('/api/items', origin, 'POST', 'x-custom');
      expect(answer.status).toBe(200);
      expect(answer.headers.vary).toBe('Origin');
      expect(corsHeaderNames(answer)).toEqual([]);
    }
  });

  it('refuses a method with 405 and a header with 400', async () => {
    const method = await preflight('/api/items', ALLOWED, 'PROPFIND');
    expect(method.status).toBe(405);
    expect(method.headers.allow).toBe('GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
    const header = await preflight('/api/items', ALLOWED, 'POST', 'content-type, x-evil');
    expect(header.status).toBe(400);
    expect(header.body).toBe('Unauthorized header x-evil');
    const malformed = await preflight('/api/items', ALLOWED, 'POST', 'x<script>');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toBe('Malformed Access-Control-Request-Headers');
  });

  it('lets the always-safe headers through without listing them', async () => {
    const answer = await preflight('/api/items', ALLOWED, 'GET', 'accept, accept-language, content-language');
    expect(answer.status).toBe(200);
  });

  it('follows the configuration of the longest path prefix', async () => {
    const closed = await preflight('/private/data', ALLOWED, 'GET');
    expect(corsHeaderNames(closed)).toEqual([]);
    const partner = await preflight('/partner/feed', 'https://partner.example', 'patch');
    expect(partner.status).toBe(200);
    expect(partner.headers['access-control-allow-credentials']).toBe('true');
    // `patch` is not upper-cased by browsers, so its spelling is echoed beside PATCH.
    expect(partner.headers['access-control-allow-methods']).toBe('GET, PATCH, patch');
    const loopbackOnPartner = await preflight('/partner/feed', ALLOWED, 'GET');
    expect(corsHeaderNames(loopbackOnPartner)).toEqual([]);
    // `/partnership` is not under `/partner`: the defaults apply.
    const sibling = await preflight('/partnership', ALLOWED, 'GET');
    expect(sibling.headers['access-control-allow-origin']).toBe(ALLOWED);
  });

  it('treats OPTIONS without Access-Control-Request-Method as an ordinary request', async () => {
    const answer = await send(server.origin, 'OPTIONS', '/api/items', [['origin', ALLOWED]]);
    expect(answer.status).toBe(404);
    expect(answer.headers['access-control-allow-origin']).toBe(ALLOWED);
  });
});

describe('actual requests (kernel.response 0)', () => {
  it('adds the exact origin, exposed headers and Vary: Origin for an allowed origin', async () => {
    const answer = await send(server.origin, 'GET', '/api/items', [['origin', ALLOWED]]);
    expect(answer.status).toBe(200);
    expect(answer.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(answer.headers['access-control-expose-headers']).toBe('x-request-id');
    expect(answer.headers['access-control-allow-credentials']).toBeUndefined();
    expect(answer.headers.vary).toBe('Origin');
  });

  it('processes a refused origin normally but grants nothing', async () => {
    calls.length = 0;
    const answer = await send(server.origin, 'GET', '/api/items', [['origin', 'http://localhost.evil.com']]);
    expect(answer.status).toBe(200);
    expect(calls).toEqual(['list']);
    expect(corsHeaderNames(answer)).toEqual([]);
    expect(answer.headers.vary).toBe('Origin');
  });

  it('refuses several Origin headers even when each alone is allowed', async () => {
    const answer = await send(server.origin, 'GET', '/api/items', [
      ['origin', ALLOWED],
      ['origin', 'http://127.0.0.1'],
    ]);
    expect(corsHeaderNames(answer)).toEqual([]);
  });

  it('adds CORS headers to error responses for allowed origins', async () => {
    const answer = await send(server.origin, 'GET', '/missing', [['origin', ALLOWED]]);
    expect(answer.status).toBe(404);
    expect(answer.headers['access-control-allow-origin']).toBe(ALLOWED);
  });

  it('adds credentials where configured', async () => {
    const answer = await send(server.origin, 'GET', '/partner/feed', [['origin', 'https://partner.example']]);
    expect(answer.headers['access-control-allow-origin']).toBe('https://partner.example');
    expect(answer.headers['access-control-allow-credentials']).toBe('true');
  });

  it('leaves same-origin and origin-less requests alone, except Vary on publicly cacheable answers', async () => {
    const same = await send(server.origin, 'GET', '/api/items', [['origin', server.origin]]);
    expect(corsHeaderNames(same)).toEqual([]);
    expect(same.headers.vary).toBeUndefined();
    const none = await send(server.origin, 'GET', '/api/items');
    expect(none.headers.vary).toBeUndefined();
    const cacheable = await send(server.origin, 'GET', '/public');
    expect(cacheable.headers.vary).toBe('Origin');
  });
});

describe('configuration', () => {
  it('refuses "*" with credentials and a negative max-age', () => {
    expect(() => new CorsListener({ allowOrigins: ['*'], allowCredentials: true })).toThrow(/cannot be combined/);
    expect(() => new CorsListener({ maxAgeSeconds: -1 })).toThrow(/maxAgeSeconds/);
    expect(() => new CorsListener({ paths: [{ prefix: 'api' }] })).toThrow(/must start with/);
  });
});
