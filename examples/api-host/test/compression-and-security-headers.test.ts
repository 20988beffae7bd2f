import { request as httpRequest } from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteDataFolder, type PgliteDataFolder } from '../../../test/kit/services/pglite-data.js';
import { bytesGet, rawResponses } from '../../../test/kit/raw-http.js';
import { startHostInProcess, type StartedHost } from './support/start-host.js';

/** The OWASP REST headers every answer carries (HSTS aside: these run over plain HTTP). */
const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy': "frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
};

let folder: PgliteDataFolder;
let host: StartedHost;
let base: string;
let token: string;

beforeAll(async () => {
  folder = await pgliteDataFolder();
  host = await startHostInProcess({ ALLOW_DEMO_USERS: '1', PGLITE_DATA_DIR: folder.path });
  base = host.running.url;
  token = await host.app.tokenIssuer.issueToken({ identifier: 'ada', roles: ['ROLE_USER'] });
  // Enough items for a list above the compression threshold.
  for (let i = 0; i < 20; i++) {
    const created = await fetch(`${base}/api/items`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `compressible item number ${i}`, quantity: i }),
    });
    expect(created.status).toBe(201);
  }
});

afterAll(async () => {
  await host?.stop();
  await folder?.remove();
});

const get = (path: string, headers: Record<string, string> = {}) => bytesGet(`${base}${path}`, headers);

const securityHeadersOf = (headers: Record<string, string | string[] | undefined>) =>
  Object.fromEntries(Object.keys(SECURITY_HEADERS).map((name) => [name, headers[name]]));

describe('compression on the example host', () => {
  it('answers the item list br-encoded: the same bytes as identity, Vary, an ETag of its own', async () => {
    const identity = await get('/api/items');
    const br = await get('/api/items', { 'accept-encoding': 'br' });
    expect(identity.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.body).equals(identity.body)).toBe(true);
    expect(br.headers['vary']).toContain('Accept-Encoding');
    expect(identity.headers['vary']).toContain('Accept-Encoding');
    expect(identity.headers['etag']).toMatch(/^"items-/);
    expect(br.headers['etag']).not.toBe(identity.headers['etag']);
    // The compressed copy revalidates with its own tag.
    expect((await get('/api/items', { 'accept-encoding': 'br', 'if-none-match': String(br.headers['etag']) })).status).toBe(304);
  });

  it('never compresses a Range request on the export', async () => {
    const ranged = await get('/api/items/export', { authorization: `Bearer ${token}`, 'accept-encoding': 'br, gzip', range: 'bytes=0-9' });
    expect([200, 206]).toContain(ranged.status);
    expect(ranged.headers['content-encoding']).toBeUndefined();
    if (ranged.status === 206) expect(ranged.body.length).toBe(10);
    expect(ranged.body.subarray(0, 7).toString()).toBe('{"id":1');
  });

  it('sends an event of the item stream as it happens, compressed and flushed (not held until the stream ends)', async () => {
    const firstEvent = new Promise<{ encoding: string | undefined; text: string }>((resolve, reject) => {
      const req = httpRequest(
        `${base}/api/items/events`,
        { headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip' } },
        (res) => {
          const encoding = res.headers['content-encoding'];
          const decoded = encoding === 'gzip' ? res.pipe(zlib.createGunzip()) : res;
          let text = '';
          decoded.on('data', (chunk: Buffer) => {
            text += chunk.toString();
            if (text.includes('event: created\n') && text.endsWith('\n\n')) {
              req.destroy();
              resolve({ encoding, text });
            } else if (text.startsWith(':\n\n') && text.length === 3) {
              // Open: now an item is created, and its event must come through while the stream stays open.
              void fetch(`${base}/api/items`, {
                method: 'POST',
                headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
                body: JSON.stringify({ name: 'streamed lamp', quantity: 1 }),
              });
            }
          });
        },
      );
      req.setTimeout(10_000, () => req.destroy(new Error('no event')));
      req.on('error', (error) => (error.message === 'socket hang up' ? undefined : reject(error)));
      req.end();
    });
    const { encoding, text } = await firstEvent;
    expect(encoding).toBe('gzip');
    expect(text).toContain('"name":"streamed lamp"');
  });
});

describe('security headers on the example host', () => {
  it('on answers of every kind: JSON, 401, 404 (in debug mode an error page drops the CSP, as the service specifies; X-Frame-Options still forbids framing)', async () => {
    for (const [path, status] of [
      ['/api/items', 200],
      ['/api/me', 401],
      ['/robots.txt', 404],
      ['/api/items/1/nope', 404],
    ] as const) {
      const answer = await get(path, { accept: 'application/json' });
      expect(answer.status).toBe(status);
      const { 'content-security-policy': policy, ...others } = SECURITY_HEADERS;
      expect(securityHeadersOf(answer.headers)).toMatchObject(others);
      // The error pages of debug mode drop any policy (ErrorListener); other answers keep it.
      if (path === '/api/items' || path === '/api/me') expect(answer.headers['content-security-policy']).toBe(policy);
      expect(answer.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it("on the adapter's own 400 for a malformed request line", async () => {
    const exchange = await rawResponses(host.running.port, 'GET /api/items HTTP/1.1 trailing\r\nHost: 127.0.0.1\r\n\r\n', { responses: 1 });
    const [answer] = exchange.responses;
    expect(answer?.status).toBe(400);
    expect(securityHeadersOf(answer!.headers)).toEqual(SECURITY_HEADERS);
  });

  it('the profiler pages keep their own policy', async () => {
    const answer = await get('/robots.txt');
    const page = await get(`/_profiler/${answer.headers['x-debug-token']}`);
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).not.toBe(SECURITY_HEADERS['content-security-policy']);
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
  });
});
