import http2 from 'node:http2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryLogger, Response, type Request } from '@switchboard/http-kernel';
import { serve, type RunningServer } from '../src/index.js';
import { createTestCertificate } from '../../../test/kit/services/certificate.js';
import { rawExchange, rawExchangeDetailed, statusOfRaw, uploadWhileReading } from '../../../test/kit/raw-http.js';
import { handlerRoutes, testKernel } from '../../../test/kit/index.js';

/** Levels a client must never be able to produce at will. */
const SERIOUS = new Set(['ERROR', 'CRITICAL', 'ALERT', 'EMERGENCY']);

describe('protocol edges served by serve()', () => {
  const { kernel } = testKernel({
    routes: handlerRoutes({
      '/hello': () => new Response('hello'),
      '/echo': async (request) => new Response(request.body === null ? '' : await request.body.text()),
      '/ignore-body': () => new Response('not read'),
    }),
    recordTerminate: true,
  });
  const logger = new MemoryLogger();
  let running: RunningServer;

  beforeAll(async () => {
    running = await serve(kernel, { handleSignals: false, logger, bodyLimit: 1000 });
  });
  afterAll(() => running.close());

  const exchange = (text: string) => rawExchangeDetailed(running.port, text);
  const seriousRecords = () => logger.records.filter((record) => SERIOUS.has(record.level));

  it('answers an HTTP/1 request line naming version 2.0 with 505, logging nothing serious', async () => {
    const { received, closedByServer } = await exchange('GET /hello HTTP/2.0\r\nHost: a\r\n\r\n');
    expect(statusOfRaw(received)).toBe(505);
    expect(received).toContain('HTTP Version Not Supported');
    expect(closedByServer).toBe(true);
    expect(seriousRecords()).toEqual([]);
  });

  it('answers an HTTP/0.9 request line with 505', async () => {
    expect(statusOfRaw(await rawExchange(running.port, 'GET /hello HTTP/0.9\r\nHost: a\r\n\r\n'))).toBe(505);
  });

  it('refuses two Host headers with 400', async () => {
    const { received, closedByServer } = await exchange('GET /hello HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\n\r\n');
    expect(statusOfRaw(received)).toBe(400);
    expect(received).toContain('more than one Host');
    expect(closedByServer).toBe(true);
  });

  it('refuses two Host headers spelled in different cases with 400', async () => {
    const { received } = await exchange('GET /hello HTTP/1.1\r\nhost: a.example\r\nHOST: b.example\r\n\r\n');
    expect(statusOfRaw(received)).toBe(400);
    expect(received).toContain('more than one Host');
  });

  it('refuses an HTTP/1.1 request without Host with a 400 that says why', async () => {
    const received = await rawExchange(running.port, 'GET /hello HTTP/1.1\r\n\r\n');
    expect(statusOfRaw(received)).toBe(400);
    expect(received).toContain('no Host header');
  });

  it('answers CONNECT with 501 and a body, then closes', async () => {
    const { received, closedByServer } = await exchange('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expect(statusOfRaw(received)).toBe(501);
    expect(received).toMatch(/\r\n\r\n501 Not Implemented: .+\n$/);
    expect(closedByServer).toBe(true);
  });

  it('answers OPTIONS * itself, and refuses the asterisk for any other method', async () => {
    const options = await rawExchange(running.port, 'OPTIONS * HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n');
    expect(statusOfRaw(options)).toBe(204);
    expect(statusOfRaw(await rawExchange(running.port, 'GET * HTTP/1.1\r\nHost: a\r\n\r\n'))).toBe(400);
  });

  it('refuses an absolute-form target of another scheme or with userinfo', async () => {
    expect(statusOfRaw(await rawExchange(running.port, 'GET ftp://other.example/hello HTTP/1.1\r\nHost: a\r\n\r\n'))).toBe(400);
    expect(statusOfRaw(await rawExchange(running.port, 'GET http:///hello HTTP/1.1\r\nHost: a\r\n\r\n'))).toBe(400);
  });

  it('refuses Transfer-Encoding on an HTTP/1.0 request (its framing cannot be trusted)', async () => {
    const { received, closedByServer } = await exchange(
      'POST /echo HTTP/1.0\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n',
    );
    expect(statusOfRaw(received)).toBe(400);
    expect(closedByServer).toBe(true);
  });

  it('answers a transfer coding other than chunked with 501, before the kernel, however the header name is spelled', async () => {
    const { received, closedByServer } = await exchange('POST /echo HTTP/1.1\r\nHost: a\r\nTRANSFER-encoding: gzip\r\n\r\n0\r\n\r\n');
    expect(statusOfRaw(received)).toBe(501);
    expect(closedByServer).toBe(true);
  });

  it('lets the client read an early 413 while its body is still arriving', async () => {
    // Several rounds: without draining, most of them end in a reset before the answer is read.
    for (const chunked of [false, true, false, true, false, true]) {
      const answer = await uploadWhileReading(running.port, '/echo', { length: 8 * 1024 * 1024, chunked });
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer).toContain('larger than the 1000 bytes allowed');
    }
  });

  it('keeps the connection usable after an early answer when the rest of the body arrives', async () => {
    const received = await rawExchange(running.port, [
      'POST /ignore-body HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\n01234',
      '56789GET /hello HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n',
    ]);
    expect(received.match(/HTTP\/1\.1 200 OK/g)).toHaveLength(2);
    expect(received.endsWith('hello')).toBe(true);
  });

  it('logged nothing at ERROR or above for any of these client mistakes', () => {
    expect(seriousRecords()).toEqual([]);
  });
});

describe('protocol edges served by serve() over TLS (HTTP/2)', () => {
  it('upper-cases an HTTP/2 method sent in lower case, and lower-cases its :authority', async () => {
    const echo = (request: Request) => new Response(`${request.method} ${request.host}`);
    const running = await serve(testKernel({ routes: handlerRoutes({ '/echo': echo }) }).kernel, {
      handleSignals: false,
      tls: createTestCertificate(),
    });
    const client = http2.connect(running.url, { rejectUnauthorized: false });
    try {
      const body = await new Promise<string>((resolve, reject) => {
        const stream = client.request({ ':method': 'get', ':path': '/echo', ':authority': 'LocalHost' });
        let text = '';
        stream.setEncoding('utf8');
        stream.on('data', (chunk: string) => (text += chunk));
        stream.on('end', () => resolve(text));
        stream.on('error', reject);
      });
      expect(body).toBe('GET localhost');
    } finally {
      client.destroy();
      await running.close();
    }
  });

  it('answers an HTTP/2 CONNECT with 501 and a body', async () => {
    const running = await serve(testKernel({ routes: handlerRoutes({}), recordTerminate: true }).kernel, {
      handleSignals: false,
      tls: createTestCertificate(),
    });
    const client = http2.connect(running.url, { rejectUnauthorized: false });
    try {
      const answer = await new Promise<[number, string]>((resolve, reject) => {
        const stream = client.request({ ':method': 'CONNECT', ':authority': 'example.com:443' });
        let status = 0;
        let body = '';
        stream.on('response', (headers) => (status = Number(headers[':status'])));
        stream.setEncoding('utf8');
        stream.on('data', (chunk: string) => (body += chunk));
        stream.on('end', () => resolve([status, body]));
        stream.on('error', reject);
      });
      expect(answer[0]).toBe(501);
      expect(answer[1]).toContain('CONNECT is not supported');
    } finally {
      client.destroy();
      await running.close();
    }
  });
});
