import { randomBytes } from 'node:crypto';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import zlib from 'node:zlib';
import { JsonResponse, Response, type Request } from '@switchboard/http-kernel';
import { EventStreamResponse } from '@switchboard/http-kernel/sse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytesGet } from '../../../test/kit/raw-http.js';
import { startTestServer, type TestServer } from '../../../test/kit/index.js';
import { AVAILABLE_CODINGS, CompressionListener, negotiateCoding } from '../src/index.js';
import { compressedStream } from '../src/compressed-stream.js';

const ITEMS = Array.from({ length: 200 }, (_, id) => ({ id, name: `item ${id}`, tags: ['alpha', 'beta'] }));
const BIG_TEXT = 'line of text that repeats\n'.repeat(40_000);

async function* chunksOf(text: string, size: number): AsyncGenerator<string> {
  for (let at = 0; at < text.length; at += size) yield text.slice(at, at + size);
}

const routes = {
  '/items': () => new JsonResponse(ITEMS, 200, { etag: '"v1"' }),
  'GET /small': () => new JsonResponse({ ok: true }),
  'GET /png': () => new Response(new Uint8Array(4096), 200, { 'content-type': 'image/png' }),
  'GET /ranged': () => new Response('x'.repeat(4096), 206, { 'content-type': 'text/plain', 'content-range': 'bytes 0-4095/10000' }),
  'GET /encoded': () => new Response(zlib.gzipSync('y'.repeat(4096)), 200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }),
  'GET /no-transform': () => new Response('z'.repeat(4096), 200, { 'content-type': 'text/plain', 'cache-control': 'no-transform' }),
  'GET /streamed': () => new Response(chunksOf(BIG_TEXT, 16 * 1024), 200, { 'content-type': 'text/plain; charset=UTF-8' }),
  'GET /opted-out': { controller: () => new JsonResponse(ITEMS), defaults: { _compression: false } },
  'GET /revalidate': (request: Request) =>
    request.headers.get('if-none-match') === '"v1"'
      ? new Response(null, 304, { etag: '"v1"' })
      : new JsonResponse(ITEMS, 200, { etag: '"v1"' }),
  'GET /events': (request: Request) => new EventStreamResponse(request, endlessEvents()),
  'GET /events-compressed': {
    controller: (request: Request) => new EventStreamResponse(request, endlessEvents()),
    defaults: { _compression: { eventStream: true } },
  },
};

/** One event at once, then nothing until the client leaves: a buffered stream would never show it. */
async function* endlessEvents() {
  yield { event: 'hello', data: 'x'.repeat(2000) };
  await new Promise(() => undefined);
}

const get = (server: TestServer, path: string, headers: Record<string, string> = {}) => bytesGet(`${server.origin}${path}`, headers);

function decode(coding: string | undefined, body: Buffer): Buffer {
  switch (coding) {
    case 'br':
      return zlib.brotliDecompressSync(body);
    case 'gzip':
      return zlib.gunzipSync(body);
    case 'deflate':
      return zlib.inflateSync(body);
    case 'zstd':
      return (zlib as unknown as { zstdDecompressSync(data: Buffer): Buffer }).zstdDecompressSync(body);
    default:
      return body;
  }
}

describe('CompressionListener over HTTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ routes, subscribers: [new CompressionListener()] });
  });
  afterAll(() => server.close());

  it.each(AVAILABLE_CODINGS)('answers %s when asked, decoding to the identity bytes, with Vary and a per-coding ETag', async (coding) => {
    const identity = await get(server, '/items');
    const compressed = await get(server, '/items', { 'accept-encoding': coding });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(compressed.headers['content-encoding']).toBe(coding);
    expect(decode(coding, compressed.body).equals(identity.body)).toBe(true);
    expect(compressed.body.length).toBeLessThan(identity.body.length / 3);
    expect(Number(compressed.headers['content-length'])).toBe(compressed.body.length);
    for (const answer of [identity, compressed]) expect(answer.headers['vary']).toBe('Accept-Encoding');
    expect(identity.headers['etag']).toBe('"v1"');
    expect(compressed.headers['etag']).toBe(`"v1-${coding}"`);
  });

  it('follows q-values, * and q=0', () => {
    expect(negotiateCoding('gzip;q=0.5, br;q=0.4', ['br', 'gzip'])).toBe('gzip');
    expect(negotiateCoding('gzip, br', ['br', 'gzip'])).toBe('br');
    expect(negotiateCoding('br;q=0, *', ['br', 'gzip'])).toBe('gzip');
    expect(negotiateCoding('*;q=0', ['br', 'gzip'])).toBeNull();
    expect(negotiateCoding('identity', ['br', 'gzip'])).toBeNull();
    expect(negotiateCoding('x-gzip', ['br', 'gzip'])).toBe('gzip');
    expect(negotiateCoding('br;q=bogus, gzip;q=0.1', ['br', 'gzip'])).toBe('gzip');
    expect(negotiateCoding(undefined, ['br'])).toBeNull();
  });

  it('answers HEAD with the headers GET gets', async () => {
    const headers = { 'accept-encoding': 'br' };
    const got = await get(server, '/items', headers);
    const head = await new Promise<IncomingHttpHeaders>((resolve, reject) => {
      const req = httpRequest(`${server.origin}/items`, { method: 'HEAD', headers }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.headers));
      });
      req.on('error', reject);
      req.end();
    });
    for (const name of ['content-encoding', 'content-length', 'etag', 'vary']) expect(head[name]).toBe(got.headers[name]);
  });

  it('over the wire: the coding the q-values prefer', async () => {
    expect((await get(server, '/items', { 'accept-encoding': 'br;q=0.2, gzip;q=0.9' })).headers['content-encoding']).toBe('gzip');
  });

  it('leaves small bodies, images, 206, Content-Encoding and no-transform alone', async () => {
    const small = await get(server, '/small', { 'accept-encoding': 'br' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.headers['vary']).toBe('Accept-Encoding');
    const png = await get(server, '/png', { 'accept-encoding': 'br' });
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.headers['vary']).toBeUndefined();
    const ranged = await get(server, '/ranged', { 'accept-encoding': 'br' });
    expect(ranged.status).toBe(206);
    expect(ranged.headers['content-encoding']).toBeUndefined();
    expect(ranged.body.toString()).toBe('x'.repeat(4096));
    const wholeForRange = await get(server, '/items', { 'accept-encoding': 'br', range: 'bytes=0-9' });
    expect(wholeForRange.headers['content-encoding']).toBeUndefined();
    const encoded = await get(server, '/encoded', { 'accept-encoding': 'br' });
    expect(encoded.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(encoded.body).toString()).toBe('y'.repeat(4096));
    expect((await get(server, '/no-transform', { 'accept-encoding': 'br' })).headers['content-encoding']).toBeUndefined();
    expect((await get(server, '/opted-out', { 'accept-encoding': 'br' })).headers['content-encoding']).toBeUndefined();
  });

  it('compresses a streamed body as a stream', async () => {
    const answer = await get(server, '/streamed', { 'accept-encoding': 'gzip' });
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(answer.headers['transfer-encoding']).toBe('chunked');
    expect(zlib.gunzipSync(answer.body).toString()).toBe(BIG_TEXT);
  });

  it('a client revalidating its compressed copy with the suffixed tag gets a 304', async () => {
    const first = await get(server, '/revalidate', { 'accept-encoding': 'br' });
    const again = await get(server, '/revalidate', { 'accept-encoding': 'br', 'if-none-match': String(first.headers['etag']) });
    expect(again.status).toBe(304);
  });

  it('never buffers an event stream: not compressed unless the route opts in, and then flushed per event', async () => {
    for (const [path, coding] of [
      ['/events', undefined],
      ['/events-compressed', 'gzip'],
    ] as const) {
      const first = await new Promise<{ encoding: string | undefined; text: string }>((resolve, reject) => {
        const req = httpRequest(`${server.origin}${path}`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
          const encoding = res.headers['content-encoding'];
          const decoded = encoding === 'gzip' ? res.pipe(zlib.createGunzip()) : res;
          let text = '';
          decoded.on('data', (chunk: Buffer) => {
            text += chunk.toString();
            if (/event: hello\n.*\n\n/s.test(text)) {
              req.destroy();
              resolve({ encoding, text });
            }
          });
        });
        req.on('error', (error) => (error.message === 'socket hang up' ? undefined : reject(error)));
        req.end();
      });
      expect(first.encoding).toBe(coding);
      expect(first.text).toContain('event: hello');
    }
  });
});

describe('compressedStream', () => {
  it('reads its source only as its output is read (backpressure)', async () => {
    let pulled = 0;
    // Random bytes: every chunk makes output at once (text could be held back by the encoder).
    async function* source() {
      for (let i = 0; i < 1000; i++) {
        pulled++;
        yield randomBytes(64 * 1024);
      }
    }
    const stream = compressedStream(source(), zlib.createGzip(), false);
    let outputs = 0;
    while (outputs < 3) if (!(await stream.next()).done) outputs++;
    expect(pulled).toBeLessThanOrEqual(4);
    await stream.return(undefined);
    expect(pulled).toBeLessThanOrEqual(4);
  });
});
