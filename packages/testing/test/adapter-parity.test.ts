import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClient, type TestClient, type TestClientOptions, type TestRequestInit, type TestResponse } from '../src/index.js';
import { sampleApp } from './support/sample-app.js';

/**
 * The same requests in process and through `client.socket()` (the node adapter's `serve()` on
 * 127.0.0.1, node's HTTP client): the answers must be the same, but for what only a connection
 * has (Date, Keep-Alive, chunked framing, the client's own Connection header).
 */
type Case = readonly [name: string, method: string, path: string, init?: TestRequestInit];

const CASES: readonly Case[] = [
  ['a plain GET', 'GET', '/hello'],
  ['HEAD keeps the length GET would have', 'HEAD', '/hello'],
  ['an unknown route', 'GET', '/missing', { headers: { accept: 'application/json' } }],
  ['a route that requires POST', 'GET', '/submit', { headers: { accept: 'application/json' } }],
  ['a Host that is no host', 'GET', '/hello', { headers: { host: 'bad host' } }],
  ['a Host with a port out of range', 'GET', '/hello', { headers: { host: 'localhost:70000' } }],
  ['a Host with a path', 'GET', '/hello', { headers: { host: 'localhost/evil' } }],
  [
    'two Host fields',
    'GET',
    '/hello',
    {
      headers: [
        ['host', 'a.example'],
        ['host', 'b.example'],
      ],
    },
  ],
  ['another trusted Host', 'GET', '/inspect', { headers: { host: 'API.Example.com:8080' } }],
  ['a Host not among the trusted hosts', 'GET', '/hello', { headers: { host: 'rebound.example' } }],
  ['a body at the limit', 'POST', '/inspect', { body: '0123456789abcdef' }],
  ['a body past the limit', 'POST', '/inspect', { body: '0123456789abcdefX', headers: { accept: 'application/json' } }],
  ['a body past the limit nobody reads', 'POST', '/hello', { body: '0123456789abcdefX' }],
  [
    'forwarded headers from a trusted proxy',
    'GET',
    '/inspect',
    { headers: { 'x-forwarded-for': '198.51.100.7', 'x-forwarded-proto': 'https' } },
  ],
  ['header names in any case', 'GET', '/inspect', { headers: { 'X-Mixed-Case': 'Value', 'x-list': 'a, b' } }],
  ['a dot-segment path, as sent', 'GET', '/inspect/../hello'],
  ['a path starting with //', 'GET', '//inspect'],
  ['OPTIONS *', 'OPTIONS', '*'],
  ['a streamed body', 'GET', '/stream'],
  ['a redirect', 'GET', '/redirect/307'],
];

/** What only a connection adds or what node's client sends on its own. */
const CONNECTION_ONLY = new Set(['date', 'keep-alive', 'transfer-encoding']);

function comparable(response: TestResponse): unknown {
  const inspection = response.status === 200 && response.request?.rawPath === '/inspect';
  const headers = [...response.headers].filter(
    ([name, value]) =>
      !CONNECTION_ONLY.has(name) && !(name === 'connection' && value === 'keep-alive') && !(inspection && name === 'content-length'),
  );
  let body: unknown = response.text();
  if (inspection) {
    // node's client announces its kept-alive connection itself, so /inspect shows one more header (and its length differs).
    const seen = response.json<{ headers: Record<string, unknown> }>();
    delete seen.headers['connection'];
    body = seen;
  }
  return { status: response.status, headers, body, kernelSawIt: response.request !== null };
}

let inProcess: TestClient;
let overSocket: TestClient;

beforeAll(async () => {
  const options: TestClientOptions = {
    bodyLimit: 16,
    trustedProxies: ['loopback'],
    trustedHosts: ['localhost', '*.example.com'],
    // On the adapter's own answers (a refused Host) both ways.
    adapter: { answerHeaders: { 'x-content-type-options': 'nosniff' } },
  };
  inProcess = createTestClient(sampleApp().kernel, options);
  overSocket = await createTestClient(sampleApp().kernel, options).socket();
});

afterAll(async () => {
  await overSocket?.close();
});

describe('the in-process client answers as the node adapter does over a socket', () => {
  it.each(CASES.map(([name, method, path, init]) => ({ name, method, path, init })))('$name', async ({ method, path, init }) => {
    const wire = await overSocket.request(method, path, init);
    const local = await inProcess.request(method, path, init);
    expect(comparable(local)).toEqual(comparable(wire));
  });

  it('over the socket, the response has the same shape: the kernel request and the redirects followed', async () => {
    expect(overSocket.serverUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(inProcess.serverUrl).toBeNull();
    const response = await overSocket.get('/redirect/302', { followRedirects: true });
    expect(response.status).toBe(200);
    expect(response.redirects.map((step) => step.to)).toEqual(['http://localhost/inspect?from=302']);
    expect(response.request?.rawPath).toBe('/inspect');
    expect(response.request?.headers.has('x-switchboard-test-request')).toBe(false);
  });
});

describe('client.socket()', () => {
  it('reads profiles and waits for kernel.terminate as the in-process client does', async () => {
    const app = sampleApp({ profiler: true });
    const client = await createTestClient(app.kernel).socket();
    try {
      const response = await client.get('/hello');
      expect(response.profile?.token).toBe(response.headers.get('x-debug-token'));
      await client.settled();
      expect(app.terminated.map((request) => request.rawPath)).toEqual(['/hello']);
    } finally {
      await client.close();
    }
    await expect(client.get('/hello')).rejects.toThrow();
  });
});
