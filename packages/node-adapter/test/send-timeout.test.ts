import { createReadStream } from 'node:fs';
import http2 from 'node:http2';
import net from 'node:net';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryLogger, Response, type Request } from '@switchboard/http-kernel';
import { EventStreamResponse } from '@switchboard/http-kernel/sse';
import { handlerRoutes, startTestServer, type TestServer } from '../../../test/kit/index.js';
import {
  BACKED_UP_BYTES,
  closesOn,
  descriptorsOpenOn,
  largeFile,
  nonReadingClient,
  sendTimeoutLines,
  until,
} from '../../../test/kit/non-reading-clients.js';
import { createTestCertificate } from '../../../test/kit/services/certificate.js';

/**
 * Clients that send a request and then never read: each must be let go within the send timeout,
 * its socket (or HTTP/2 stream) closed and the file its response was reading closed.
 */
const SEND_TIMEOUT_MS = 1_000;
const CLIENTS = 40;
/** Large enough that every response backs up. */
const { file, remove } = largeFile('switchboard-send-timeout-');

/** File descriptors of this process open on the large file: one per response reading it. */
const openOnFile = (): number => descriptorsOpenOn(file);

const streams: EventStreamResponse[] = [];

/** Large events first (they fill every buffer on the way), then only heartbeats. */
function crowdedStream(request: Request): EventStreamResponse {
  const response = new EventStreamResponse(
    request,
    async function* ({ signal }) {
      for (let i = 0; i < 64; i += 1) yield { data: 'e'.repeat(256 * 1024) };
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    },
    { heartbeatIntervalMs: 100 },
  );
  streams.push(response);
  return response;
}

/** Never an event: only heartbeats (or nothing at all with `?heartbeat=0`). */
function quietStream(request: Request): EventStreamResponse {
  return new EventStreamResponse(request, ({ signal }) => waitForAbort(signal), {
    heartbeatIntervalMs: Number(request.query.get('heartbeat') ?? 100),
  });
}

async function* waitForAbort(signal: AbortSignal): AsyncGenerator<never> {
  await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
}

const routes = handlerRoutes({
  'GET /file': () => new Response(createReadStream(file), 200, { 'content-type': 'application/octet-stream' }),
  // Handed to node whole: the response is finished only once the client took it all in.
  'GET /bytes': () => new Response(new Uint8Array(BACKED_UP_BYTES), 200, { 'content-type': 'application/octet-stream' }),
  // Answers after three send timeouts without a byte on its connection.
  'GET /slow': async () => {
    await new Promise((resolve) => setTimeout(resolve, 3 * SEND_TIMEOUT_MS));
    return new Response('slow answer', 200, { 'content-type': 'text/plain' });
  },
  'GET /crowded-events': crowdedStream,
  'GET /quiet-events': quietStream,
});

afterAll(remove);

describe('send timeout, HTTP/1.1', () => {
  const logger = new MemoryLogger();
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ routes, serve: { logger, sendTimeout: SEND_TIMEOUT_MS } });
  });
  afterAll(() => server.close());

  it(`releases ${CLIENTS} clients that stopped reading a file, with a log line each`, async () => {
    const connections = closesOn(server, 'connection');
    const sockets = Array.from({ length: CLIENTS }, () =>
      nonReadingClient(() => net.connect({ port: server.port, host: '127.0.0.1' }), 'connect', '/file'),
    );
    try {
      await until(() => connections.opened === CLIENTS, 'every connection accepted');
      await until(() => connections.closed === CLIENTS, 'the server closing every connection');
      await until(() => openOnFile() === 0, 'every file descriptor closed');
      expect(sendTimeoutLines(logger, 'HTTP/1')).toBe(CLIENTS);
      const line = logger.records.find((record) => record.message.startsWith('Send timeout:'))!;
      expect(line.level).toBe('INFO');
      expect(line.context['sendTimeout']).toBe(SEND_TIMEOUT_MS);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });

  it('releases a client that stopped reading a body handed over whole, too large to go out at once', async () => {
    const connections = closesOn(server, 'connection');
    const before = sendTimeoutLines(logger, 'HTTP/1');
    const socket = nonReadingClient(() => net.connect({ port: server.port, host: '127.0.0.1' }), 'connect', '/bytes');
    try {
      await until(() => connections.closed === 1, 'the server closing the connection');
      expect(sendTimeoutLines(logger, 'HTTP/1')).toBe(before + 1);
    } finally {
      socket.destroy();
    }
  });

  it('answers a slow request pipelined behind a response that had to wait, however long the connection is quiet', async () => {
    const socket = net.connect({ port: server.port, host: '127.0.0.1' });
    const ending = 'slow answer';
    try {
      const received = await new Promise<string>((resolve, reject) => {
        const chunks: Buffer[] = [];
        let tail = '';
        socket.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          tail = (tail + chunk.toString('latin1')).slice(-ending.length);
          if (tail === ending) resolve(Buffer.concat(chunks).toString('latin1'));
        });
        socket.on('close', () => reject(new Error('The server closed the connection before the slow answer.')));
        socket.on('error', reject);
        socket.write('GET /bytes HTTP/1.1\r\nHost: localhost\r\n\r\nGET /slow HTTP/1.1\r\nHost: localhost\r\n\r\n');
      });
      expect(received.match(/HTTP\/1\.1 200 OK/g)).toHaveLength(2);
    } finally {
      socket.destroy();
    }
  });

  it('closes an event stream whose events and heartbeats the client no longer takes in', async () => {
    const connections = closesOn(server, 'connection');
    const socket = nonReadingClient(() => net.connect({ port: server.port, host: '127.0.0.1' }), 'connect', '/crowded-events');
    try {
      await until(() => streams.length === 1, 'the stream to start');
      await until(() => streams[0]!.outcome !== null, 'the stream to end');
      expect(streams[0]!.outcome!.ending).toBe('client-gone');
      await until(() => connections.closed === 1, 'the server closing the connection');
    } finally {
      socket.destroy();
    }
  });

  it('leaves a quiet event stream open, with or without heartbeats, while its client reads', async () => {
    for (const heartbeat of [100, 0]) {
      const controller = new AbortController();
      const response = await fetch(`${server.origin}/quiet-events?heartbeat=${heartbeat}`, { signal: controller.signal });
      const reader = response.body!.getReader();
      let received = '';
      const reading = (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return 'ended';
          received += new TextDecoder().decode(value);
        }
      })().catch(() => 'aborted');
      // Three send timeouts without a single queued byte for long.
      await new Promise((resolve) => setTimeout(resolve, 3 * SEND_TIMEOUT_MS));
      controller.abort();
      expect(await reading).toBe('aborted');
      if (heartbeat > 0) expect(received.split(':\n\n').length).toBeGreaterThan(3);
    }
  });
});

describe('send timeout, TLS server', () => {
  const logger = new MemoryLogger();
  let server: TestServer;
  beforeAll(async () => {
    streams.length = 0;
    server = await startTestServer({
      routes,
      // The idle timeout (which also ends quiet TLS connections) far beyond the test.
      serve: { logger, sendTimeout: SEND_TIMEOUT_MS, idleTimeout: 600_000, tls: createTestCertificate() },
    });
  });
  afterAll(() => server.close());

  it(`releases ${CLIENTS} HTTPS (HTTP/1.1) clients that stopped reading`, async () => {
    const connections = closesOn(server, 'connection');
    const connect = (): net.Socket =>
      tls.connect({ port: server.port, host: '127.0.0.1', rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] });
    const sockets = Array.from({ length: CLIENTS }, () => nonReadingClient(connect, 'secureConnect', '/file'));
    try {
      await until(() => connections.opened === CLIENTS, 'every connection accepted');
      await until(() => connections.closed === CLIENTS, 'the server closing every connection');
      await until(() => openOnFile() === 0, 'every file descriptor closed');
      expect(sendTimeoutLines(logger, 'HTTP/1')).toBe(CLIENTS);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });

  it(`resets ${CLIENTS} HTTP/2 streams whose client stopped reading`, async () => {
    const session = http2.connect(server.origin, { rejectUnauthorized: false });
    session.on('error', () => undefined);
    const streamsOpened = closesOn(server, 'stream');
    try {
      for (let i = 0; i < CLIENTS; i += 1) {
        const stream = session.request({ ':path': '/file' });
        // Never read: the client sends no window updates, so the server's output queues up.
        stream.pause();
        stream.on('error', () => undefined);
      }
      await until(() => streamsOpened.opened === CLIENTS, 'every stream opened');
      await until(() => streamsOpened.closed === CLIENTS, 'the server resetting every stream');
      // The connection itself stays: only the streams were cut.
      expect(session.destroyed).toBe(false);
      await until(() => openOnFile() === 0, 'every file descriptor closed');
      expect(sendTimeoutLines(logger, 'HTTP/2')).toBe(CLIENTS);
    } finally {
      session.destroy();
    }
  });

  it('resets an HTTP/2 event stream whose events and heartbeats the client no longer takes in', async () => {
    const session = http2.connect(server.origin, { rejectUnauthorized: false });
    session.on('error', () => undefined);
    const before = { streams: streams.length, lines: sendTimeoutLines(logger, 'HTTP/2') };
    try {
      const stream = session.request({ ':path': '/crowded-events' });
      stream.pause();
      stream.on('error', () => undefined);
      await until(() => streams.length === before.streams + 1, 'the stream to start');
      await until(() => streams[before.streams]!.outcome !== null, 'the stream to end');
      expect(streams[before.streams]!.outcome!.ending).toBe('client-gone');
      expect(sendTimeoutLines(logger, 'HTTP/2')).toBe(before.lines + 1);
    } finally {
      session.destroy();
    }
  });
});
