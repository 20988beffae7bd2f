import { HttpError, JsonResponse, Response } from '@switchboard/http-kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCertificate } from '../../../test/kit/services/certificate.js';
import { rawExchange, rawResponses } from '../../../test/kit/raw-http.js';
import { startTestServer, type TestServer } from '../../../test/kit/index.js';
import { SecurityHeadersListener } from '../src/index.js';

const BASELINE = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy': "frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
};

const routes = {
  'GET /items': () => new JsonResponse([{ id: 1 }]),
  'GET /page': () =>
    new Response('<p>own policy</p>', 200, { 'content-security-policy': "default-src 'self'", 'content-type': 'text/html' }),
  'GET /embeddable': {
    controller: () => new Response('embed me'),
    defaults: { _security_headers: { 'x-frame-options': null, 'content-security-policy': 'frame-ancestors https://partner.example' } },
  },
  'GET /raw': { controller: () => new Response('raw'), defaults: { _security_headers: false } },
  'GET /fails': () => {
    throw new HttpError(409, 'Conflict.');
  },
};

function headersOf(response: { headers: Headers }, names: readonly string[]): Record<string, string | null> {
  return Object.fromEntries(names.map((name) => [name, response.headers.get(name)]));
}

describe('SecurityHeadersListener over plain HTTP', () => {
  let server: TestServer;
  const listener = new SecurityHeadersListener();
  beforeAll(async () => {
    server = await startTestServer({ routes, subscribers: [listener], serve: { answerHeaders: listener.plainAnswerHeaders() } });
  });
  afterAll(() => server.close());

  it('puts the OWASP REST headers on an answer, without HSTS over plain HTTP', async () => {
    const response = await server.fetch('/items');
    expect(headersOf(response, Object.keys(BASELINE))).toEqual(BASELINE);
    expect(response.headers.get('strict-transport-security')).toBeNull();
  });

  it('on error answers and 404s too', async () => {
    expect(headersOf(await server.fetch('/fails'), Object.keys(BASELINE))).toEqual(BASELINE);
    const missing = await server.fetch('/nowhere');
    expect(missing.status).toBe(404);
    expect(headersOf(missing, Object.keys(BASELINE))).toEqual(BASELINE);
  });

  it("keeps a response's own policy", async () => {
    expect((await server.fetch('/page')).headers.get('content-security-policy')).toBe("default-src 'self'");
  });

  it('takes a route its _security_headers: values over the defaults, null leaves one out, false none', async () => {
    const embeddable = await server.fetch('/embeddable');
    expect(embeddable.headers.get('x-frame-options')).toBeNull();
    expect(embeddable.headers.get('content-security-policy')).toBe('frame-ancestors https://partner.example');
    expect(embeddable.headers.get('x-content-type-options')).toBe('nosniff');
    const raw = await server.fetch('/raw');
    expect(headersOf(raw, Object.keys(BASELINE))).toEqual(Object.fromEntries(Object.keys(BASELINE).map((name) => [name, null])));
  });

  it("the adapter's own answers carry them: a malformed request line (400), oversized headers (431), an unsupported version (505)", async () => {
    const malformed = await rawResponses(server.port, 'GET /items HTTP/1.1 extra\r\nHost: x\r\n\r\n', { responses: 1 });
    const oversized = await rawResponses(server.port, `GET /items HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, {
      responses: 1,
    });
    const badHost = await rawResponses(server.port, 'GET /items HTTP/1.1\r\nHost: a b\r\n\r\n', { responses: 1 });
    for (const [exchange, status] of [
      [malformed, 400],
      [oversized, 431],
      [badHost, 400],
    ] as const) {
      const [answer] = exchange.responses;
      expect(answer?.status).toBe(status);
      expect(Object.fromEntries(Object.keys(BASELINE).map((name) => [name, answer?.headers[name]]))).toEqual(BASELINE);
    }
  });

  it('refuses a declaration with an unknown header or a value that would split the header', () => {
    expect(() => new SecurityHeadersListener({ headers: { 'x-powered-by': 'me' } as never })).toThrow(
      /unknown security header "x-powered-by"/,
    );
    expect(() => new SecurityHeadersListener({ headers: { 'referrer-policy': 'a\r\nx: 1' } })).toThrow(/one-line string/);
  });
});

describe('SecurityHeadersListener over HTTPS', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ routes, subscribers: [new SecurityHeadersListener()], serve: { tls: createTestCertificate() } });
  });
  afterAll(() => server.close());

  it('adds Strict-Transport-Security on secure requests', async () => {
    const raw = await rawExchange(server.port, 'GET /items HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n', { secure: true });
    expect(raw).toMatch(/^HTTP\/1\.1 200 /);
    expect(raw).toMatch(/\r\nstrict-transport-security: max-age=31536000; includeSubDomains\r\n/i);
    expect(raw).toMatch(/\r\nx-content-type-options: nosniff\r\n/i);
  });
});
