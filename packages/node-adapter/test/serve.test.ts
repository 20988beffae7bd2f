import { spawn } from 'node:child_process';
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonResponse, MemoryLogger, Response } from '@switchboard/http-kernel';
import { serve, type RunningServer } from '../src/index.js';
import { createTestCertificate } from '../../../test/kit/services/certificate.js';
import { rawExchange, rawExchangeDetailed, statusOfRaw } from '../../../test/kit/raw-http.js';
import { handlerRoutes, testKernel } from '../../../test/kit/index.js';

function routes() {
  return testKernel({
    routes: handlerRoutes({
      '/hello': (request) => new JsonResponse({ hello: 'world', protocol: request.protocolVersion, scheme: request.scheme }),
      '/id': (request) => new Response(request.query.get('n') ?? ''),
      '/echo': async (request) => new Response(request.body === null ? '' : await request.body.text()),
      '/slow': async () => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        return new Response('finished');
      },
    }),
    recordTerminate: true,
  });
}

describe('serve over plain HTTP/1.1', () => {
  const { kernel } = routes();
  let running: RunningServer;

  beforeAll(async () => {
    running = await serve(kernel, { handleSignals: false, maxHeaderSize: 4096 });
  });
  afterAll(() => running.close());

  it('listens on 127.0.0.1 by default', () => {
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('answers a malformed request line with a short plain 400', async () => {
    const raw = await rawExchange(running.port, 'GET /a b c\r\n\r\n');
    expect(statusOfRaw(raw)).toBe(400);
    expect(raw).toContain('Content-Type: text/plain');
    expect(raw.endsWith('400 Bad Request\n')).toBe(true);
  });

  it('answers headers over the limit with 431', async () => {
    const raw = await rawExchange(running.port, `GET /hello HTTP/1.1\r\nHost: a\r\nX-Big: ${'a'.repeat(8000)}\r\n\r\n`);
    expect(statusOfRaw(raw)).toBe(431);
    expect(raw).not.toContain('aaaa');
  });

  it('gives each of 200 concurrent keep-alive connections its own correct response', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 200 });
    try {
      const get = (n: number) =>
        new Promise<string>((resolve, reject) => {
          http
            .get(`${running.url}/id?n=${n}`, { agent }, (response) => {
              let body = '';
              response.setEncoding('utf8');
              response.on('data', (chunk: string) => (body += chunk));
              response.on('end', () => resolve(body));
            })
            .on('error', reject);
        });
      // Two rounds over the same connections, so keep-alive reuse is exercised too.
      for (let round = 0; round < 2; round++) {
        const ids = Array.from({ length: 200 }, (_, i) => round * 1000 + i);
        const bodies = await Promise.all(ids.map(get));
        expect(bodies).toEqual(ids.map(String));
      }
      const sockets = Object.values(agent.freeSockets).flat().length;
      expect(sockets).toBeGreaterThan(1);
    } finally {
      agent.destroy();
    }
  });
});

describe('serve: headers that arrive too slowly', () => {
  it('answers 408 and closes the connection', async () => {
    const running = await serve(routes().kernel, { handleSignals: false, headersTimeout: 300, requestTimeout: 300 });
    try {
      const result = await rawExchangeDetailed(running.port, 'GET /hello HTTP/1.1\r\nHost: a\r\n', { waitMs: 10_000 });
      expect(result.closedByServer).toBe(true);
      expect(statusOfRaw(result.received)).toBe(408);
    } finally {
      await running.close();
    }
  });
});

describe('serve over TLS: HTTP/2 and HTTP/1.1 on one port', () => {
  const { kernel } = routes();
  let running: RunningServer;

  beforeAll(async () => {
    running = await serve(kernel, {
      handleSignals: false,
      tls: createTestCertificate(),
      maxHeaderSize: 4096,
      idleTimeout: 500,
      bodyLimit: 1000,
    });
  });

  it('closes an HTTP/1.1 connection that stops sending mid-headers (idle timeout)', async () => {
    const result = await rawExchangeDetailed(running.port, 'GET /hello HTTP/1.1\r\nHost: a\r\n', { secure: true, waitMs: 10_000 });
    expect(result.closedByServer).toBe(true);
    expect(result.received).not.toContain('200 OK');
  });
  afterAll(() => running.close());

  it('answers an HTTP/2 client', async () => {
    const client = http2.connect(running.url, { rejectUnauthorized: false });
    try {
      const { headers, body } = await new Promise<{ headers: http2.IncomingHttpHeaders; body: string }>((resolve, reject) => {
        const stream = client.request({ ':path': '/hello' });
        let body = '';
        let headers: http2.IncomingHttpHeaders = {};
        stream.setEncoding('utf8');
        stream.on('response', (h) => (headers = h));
        stream.on('data', (chunk: string) => (body += chunk));
        stream.on('end', () => resolve({ headers, body }));
        stream.on('error', reject);
      });
      expect(headers[':status']).toBe(200);
      expect(JSON.parse(body)).toEqual({ hello: 'world', protocol: '2.0', scheme: 'https' });
    } finally {
      client.close();
    }
  });

  it('answers an HTTP/1.1 client on the same port', async () => {
    const raw = await rawExchange(running.port, 'GET /hello HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n', { secure: true });
    expect(statusOfRaw(raw)).toBe(200);
    expect(raw).toContain('"protocol":"1.1","scheme":"https"');
  });

  it('answers HTTP/1.1 headers over the limit with 431 there too', async () => {
    const raw = await rawExchange(running.port, `GET /hello HTTP/1.1\r\nHost: a\r\nX-Big: ${'a'.repeat(8000)}\r\n\r\n`, { secure: true });
    expect(statusOfRaw(raw)).toBe(431);
  });

  it('reads an HTTP/2 request body, and answers 413 past the limit', async () => {
    const client = http2.connect(running.url, { rejectUnauthorized: false });
    const post = (body: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const stream = client.request({ ':path': '/echo', ':method': 'POST' });
        let status = 0;
        let received = '';
        stream.setEncoding('utf8');
        stream.on('response', (headers) => (status = Number(headers[':status'])));
        stream.on('data', (chunk: string) => (received += chunk));
        stream.on('end', () => resolve({ status, body: received }));
        stream.on('error', reject);
        stream.end(body);
      });
    try {
      expect(await post('small body')).toEqual({ status: 200, body: 'small body' });
      expect((await post('x'.repeat(2000))).status).toBe(413);
    } finally {
      client.close();
    }
  });

  it('limits concurrent HTTP/2 streams', async () => {
    const client = http2.connect(running.url, { rejectUnauthorized: false });
    try {
      const settings = await new Promise<http2.Settings>((resolve) => client.once('remoteSettings', resolve));
      expect(settings.maxConcurrentStreams).toBe(100);
    } finally {
      client.close();
    }
  });
});

describe('graceful close()', () => {
  it('lets an in-flight HTTP/2 request finish and closes idle HTTP/1.1 keep-alive connections', async () => {
    // Long keep-alive and idle limits: if close() left the idle connection open, it would not resolve within the test's time.
    const { kernel, handled } = routes();
    const running = await serve(kernel, {
      handleSignals: false,
      tls: createTestCertificate(),
      keepAliveTimeout: 60_000,
      idleTimeout: 60_000,
      shutdownTimeout: 60_000,
    });
    const idle = new https.Agent({ keepAlive: true });
    const client = http2.connect(running.url, { rejectUnauthorized: false });
    try {
      // An idle HTTP/1.1 keep-alive connection over TLS.
      await new Promise<void>((resolve, reject) => {
        const request = https.get(`${running.url}/id?n=1`, { agent: idle, rejectUnauthorized: false }, (response) => {
          response.resume();
          response.on('end', resolve);
        });
        request.on('error', reject);
      });
      const inFlight = new Promise<string>((resolve, reject) => {
        const stream = client.request({ ':path': '/slow' });
        let body = '';
        stream.setEncoding('utf8');
        stream.on('data', (chunk: string) => (body += chunk));
        stream.on('end', () => resolve(body));
        stream.on('error', reject);
      });
      await expect.poll(() => handled.some((request) => request.path === '/slow'), { timeout: 60_000, interval: 10 }).toBe(true);
      const closed = running.close();
      expect(await inFlight).toBe('finished');
      await closed;
      expect(running.server.listening).toBe(false);
    } finally {
      idle.destroy();
      client.destroy();
    }
  });
});

describe('close() and kernel.terminate', () => {
  it('resolves only once a kernel.terminate listener that waits has finished, and before onShutdown', async () => {
    const { kernel, dispatcher } = routes();
    const steps: string[] = [];
    dispatcher.on('kernel.terminate', async () => {
      steps.push('terminate started');
      await new Promise((resolve) => setTimeout(resolve, 50));
      steps.push('terminate finished');
    });
    const running = await serve(kernel, { handleSignals: false, onShutdown: () => void steps.push('onShutdown') });
    expect(await (await fetch(`${running.url}/id?n=1`)).text()).toBe('1');
    await expect.poll(() => steps).toContain('terminate started');
    await running.close();
    expect(steps).toEqual(['terminate started', 'terminate finished', 'onShutdown']);
  });

  it('gives up on a kernel.terminate that never finishes at the shutdown deadline, and says so', async () => {
    const { kernel, dispatcher } = routes();
    let started = false;
    dispatcher.on('kernel.terminate', () => {
      started = true;
      return new Promise<void>(() => undefined);
    });
    const logger = new MemoryLogger();
    const running = await serve(kernel, { handleSignals: false, logger, shutdownTimeout: 500 });
    expect(await (await fetch(`${running.url}/id?n=2`)).text()).toBe('2');
    await expect.poll(() => started).toBe(true);
    await running.close();
    expect(logger.records.map((record) => record.message)).toContain('kernel.terminate did not finish before the shutdown deadline.');
  });
});

describe('bounded close()', () => {
  it('answers a request still running after the grace period with 503, and ends though onShutdown never does', async () => {
    let started!: () => void;
    const requestStarted = new Promise<void>((resolve) => (started = resolve));
    const { kernel } = testKernel({
      routes: handlerRoutes({
        '/never': () => {
          started();
          return new Promise<Response>(() => undefined);
        },
      }),
      recordTerminate: true,
    });
    const logger = new MemoryLogger();
    const running = await serve(kernel, {
      handleSignals: false,
      logger,
      shutdownTimeout: 1000,
      onShutdown: () => new Promise<void>(() => undefined),
    });
    const inFlight = fetch(`${running.url}/never`).then(async (response) => [response.status, await response.text()]);
    await requestStarted;
    await running.close();
    expect(await inFlight).toEqual([503, '503 Service Unavailable: The server is shutting down; please retry.\n']);
    expect(logger.records.map((record) => record.message)).toEqual(
      expect.arrayContaining([
        '1 in-flight request(s) did not finish within 700 ms: answered 503.',
        'onShutdown did not finish before the shutdown deadline.',
      ]),
    );
  });
});

describe('graceful shutdown on SIGTERM, serve() given no logger', () => {
  function startSlowServer() {
    const fixture = fileURLToPath(new URL('./fixtures/slow-server.ts', import.meta.url));
    const child = spawn(process.execPath, ['--conditions=@switchboard/source', '--import', 'tsx', fixture], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let errors = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const listening = async () => {
      await expect.poll(() => output, { timeout: 60_000, interval: 50 }).toMatch(/listening (\S+)/);
      return /listening (\S+)/.exec(output)![1]!;
    };
    const started = (path: string, count: number) =>
      expect
        .poll(() => output.split('\n').filter((line) => line === `started ${path}`).length, { timeout: 60_000, interval: 20 })
        .toBe(count);
    return { child, exited, listening, started, output: () => output, errors: () => errors };
  }

  it('finishes in-flight requests, runs terminate, exits 0, and writes nothing on stderr', async () => {
    const server = startSlowServer();
    try {
      const url = await server.listening();
      const inFlight = Array.from({ length: 5 }, () => fetch(`${url}/slow`).then(async (r) => [r.status, await r.text()]));
      await server.started('/slow', 5);
      server.child.kill('SIGTERM');
      expect(await Promise.all(inFlight)).toEqual(Array.from({ length: 5 }, () => [200, 'finished']));
      expect(await server.exited).toBe(0);
      expect(server.output().match(/terminated \/slow/g)).toHaveLength(5);
      expect(server.output()).toContain('shutdown complete');
      expect(server.errors()).toBe('');
    } finally {
      server.child.kill('SIGKILL');
    }
  });

  it('reports on stderr a request it had to cut off with a 503', async () => {
    const server = startSlowServer();
    try {
      const url = await server.listening();
      const inFlight = fetch(`${url}/never`).then(async (r) => [r.status, await r.text()]);
      await server.started('/never', 1);
      server.child.kill('SIGTERM');
      expect(await inFlight).toEqual([503, '503 Service Unavailable: The server is shutting down; please retry.\n']);
      expect(await server.exited).toBe(0);
      expect(server.errors()).toMatch(
        /^\[[^\]]+\] http\.WARNING: 1 in-flight request\(s\) did not finish within 3500 ms: answered 503\.\n$/,
      );
    } finally {
      server.child.kill('SIGKILL');
    }
  });
});
