import { execFile } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { serveKernel, type ServedKernel } from '../../../test/kit/index.js';
import { parseResponses, rawExchange } from '../../../test/kit/raw-http.js';
import { BIG_SIZE, byteranges, fileFixture, LETTERS, type FileFixture } from './support/file-routes.js';

let fixture: FileFixture;
let server: ServedKernel;

beforeAll(async () => {
  fixture = fileFixture();
  server = await serveKernel(fixture.app.kernel);
});
afterAll(async () => {
  await server?.close();
  fixture?.remove();
});

/** curl as a user runs it: `-i` prints the status line and headers before the body. */
function curl(...args: string[]): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    execFile('/usr/bin/curl', ['-s', '-i', '--max-time', '10', ...args], { encoding: 'latin1' }, (error, stdout) => {
      if (error !== null) return reject(error);
      const [head = '', ...rest] = stdout.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 2)]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
  });
}

/** One request over a raw socket, the connection closed after the answer. */
async function raw(path: string, headers: Record<string, string> = {}, method = 'GET') {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  const received = await rawExchange(
    server.port,
    `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${lines.join('')}\r\n`,
  );
  if (method === 'HEAD') return { ...parseHead(received), body: received.slice(received.indexOf('\r\n\r\n') + 4) };
  const [response] = parseResponses(received).responses;
  if (response === undefined) throw new Error(`no response to ${path}: ${received}`);
  return response;
}

describe('FileResponse over the node adapter', () => {
  it('sends a file with its type, length, validators and Accept-Ranges (curl)', async () => {
    const response = await curl(`${server.origin}/file`);
    expect(response.status).toBe(200);
    expect(response.body).toBe(LETTERS);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.headers['content-length']).toBe(String(LETTERS.length));
    expect(response.headers['accept-ranges']).toBe('bytes');
    expect(response.headers['etag']).toMatch(/^"410-[0-9a-f]+"$/);
    expect(Date.parse(response.headers['last-modified']!)).not.toBeNaN();
  });

  it('answers HEAD with the headers GET would have, and no body (curl -I)', async () => {
    const response = await curl('-I', `${server.origin}/file`);
    expect(response.status).toBe(200);
    expect(response.headers['content-length']).toBe(String(LETTERS.length));
    expect(response.headers['accept-ranges']).toBe('bytes');
    expect(response.body).toBe('');
  });

  it('encodes a download name as an ASCII fallback and filename* (no header injection)', async () => {
    const response = await raw('/download');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="resume _q3___x-injected: 1.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22q3%22%0D%0Ax-injected%3A%201.txt`,
    );
    expect(response.headers['x-injected']).toBeUndefined();
  });

  it('serves a File (Blob) with its name, type and modification date', async () => {
    const response = await curl(`${server.origin}/blob`);
    expect(response.body).toBe('# Notes\n');
    expect(response.headers['content-type']).toBe('text/markdown');
    expect(response.headers['content-disposition']).toBe('inline; filename=notes.md');
    expect(response.headers['last-modified']).toBe('Fri, 02 Jan 2026 03:04:05 GMT');
  });
});

describe('Range over the node adapter', () => {
  it('answers one range 206 with Content-Range (curl -r)', async () => {
    const response = await curl('-r', '26-30', `${server.origin}/file`);
    expect(response.status).toBe(206);
    expect(response.headers['content-range']).toBe(`bytes 26-30/${LETTERS.length}`);
    expect(response.headers['content-length']).toBe('5');
    expect(response.body).toBe('abcde');
  });

  it('answers a suffix range and an open-ended range', async () => {
    expect((await raw('/file', { range: 'bytes=-3' })).body).toBe('xyz');
    const open = await raw('/file', { range: `bytes=${LETTERS.length - 2}-` });
    expect(open.status).toBe(206);
    expect(open.body).toBe('yz');
  });

  it('answers several ranges as multipart/byteranges (raw socket)', async () => {
    const response = await raw('/file', { range: 'bytes=0-2, 27-28' });
    expect(response.status).toBe(206);
    const contentType = response.headers['content-type']!;
    expect(contentType).toMatch(/^multipart\/byteranges; boundary=[0-9a-f]+$/);
    expect(Number(response.headers['content-length'])).toBe(Buffer.byteLength(response.body));
    expect(byteranges(response.body, contentType)).toEqual([
      { headers: { 'content-type': 'text/plain; charset=utf-8', 'content-range': `bytes 0-2/${LETTERS.length}` }, body: 'abc' },
      { headers: { 'content-type': 'text/plain; charset=utf-8', 'content-range': `bytes 27-28/${LETTERS.length}` }, body: 'bc' },
    ]);
  });

  it('sends the whole file for overlapping ranges and for more ranges than the cap', async () => {
    const overlapping = await raw('/file', { range: 'bytes=0-10,5-20' });
    expect(overlapping.status).toBe(200);
    expect(overlapping.body).toBe(LETTERS);
    const many = await raw('/file', { range: 'bytes=0-0,2-2,4-4,6-6,8-8' });
    expect(many.status).toBe(200);
    expect(many.body).toBe(LETTERS);
  });

  it('answers an unsatisfiable range 416 with the size in Content-Range, as a problem', async () => {
    const response = await raw('/file', { range: 'bytes=5000-6000', accept: 'application/json' });
    expect(response.status).toBe(416);
    expect(response.headers['content-range']).toBe(`bytes */${LETTERS.length}`);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it('honours If-Range: a matching strong ETag or exact date gets the range, anything else the whole file', async () => {
    const { headers } = await raw('/file');
    const etag = headers['etag']!;
    const matching = await raw('/file', { range: 'bytes=0-1', 'if-range': etag });
    expect([matching.status, matching.body]).toEqual([206, 'ab']);
    const byDate = await raw('/file', { range: 'bytes=0-1', 'if-range': headers['last-modified']! });
    expect([byDate.status, byDate.body]).toEqual([206, 'ab']);
    const stale = await raw('/file', { range: 'bytes=0-1', 'if-range': '"other"' });
    expect([stale.status, stale.body]).toEqual([200, LETTERS]);
    const weak = await raw('/file', { range: 'bytes=0-1', 'if-range': `W/${etag}` });
    expect(weak.status).toBe(200);
  });

  it('checks preconditions first: 304 for a current copy, 412 for a failed If-Match, even with a Range', async () => {
    const { headers } = await raw('/file');
    const notModified = await raw('/file', { 'if-none-match': headers['etag']!, range: 'bytes=0-1' });
    expect(notModified.status).toBe(304);
    expect(notModified.headers['etag']).toBe(headers['etag']);
    expect(notModified.body).toBe('');
    const failed = await raw('/file', { 'if-match': '"someone-else"', range: 'bytes=0-1' });
    expect(failed.status).toBe(412);
    const since = await curl('-H', `If-Modified-Since: ${headers['last-modified']}`, `${server.origin}/file`);
    expect(since.status).toBe(304);
  });

  it('serves ranges of a buffered body, and leaves a stream of unknown length alone', async () => {
    const text = await raw('/text', { range: 'bytes=2-4' });
    expect([text.status, text.body, text.headers['content-range']]).toEqual([206, '234', 'bytes 2-4/10']);
    const stream = await raw('/stream', { range: 'bytes=0-1' });
    expect([stream.status, stream.body, stream.headers['accept-ranges']]).toEqual([200, 'stream of unknown length', undefined]);
  });

  it('closes a given FileHandle after a full body, a HEAD, a 416 and a client that leaves mid-file', async () => {
    const first = fixture.handles.length;
    await raw('/handle');
    const head = await raw('/handle', {}, 'HEAD');
    expect([head.status, head.headers['content-length'], head.body]).toEqual([200, String(LETTERS.length), '']);
    await raw('/handle', { range: 'bytes=9999-' });
    await clientLeavingAfterFirstChunk('/big-handle');
    const used = fixture.handles.slice(first);
    expect(used).toHaveLength(4);
    // Closing follows the response's end or the socket's close: waited for, within a bound.
    await vi.waitFor(() => expect(used.map((handle) => handle.fd)).toEqual([-1, -1, -1, -1]), { timeout: 5000, interval: 20 });
  });
});

function parseHead(received: string): { status: number; headers: Record<string, string> } {
  const [statusLine = '', ...lines] = received.slice(0, received.indexOf('\r\n\r\n')).split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 2)]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers };
}

/** Reads the first chunk of a large body, then destroys the connection. */
function clientLeavingAfterFirstChunk(path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${server.origin}${path}`, (res) => {
      expect(res.headers['content-length']).toBe(String(BIG_SIZE));
      res.once('data', () => {
        req.destroy();
        resolve();
      });
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET') reject(error);
    });
    req.end();
  });
}
