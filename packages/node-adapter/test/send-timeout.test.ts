import { createReadStream, mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import http2 from 'node:http2';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryLogger, Response, type Request } from '@switchboard/http-kernel';
import { EventStreamResponse } from '@switchboard/http-kernel/sse';
import { handlerRoutes, startTestServer, type TestServer } from '../../../test/kit/index.js';
import { createTestCertificate } from '../../../test/kit/services/certificate.js';

/**
 * Clients that send a request and then never read: each must be let go within the send timeout,
 * its socket (or HTTP/2 stream) closed and the file its response was reading closed.
 */
const SEND_TIMEOUT_MS = 1_000;
const CLIENTS = 40;
/** Far more than the kernel's socket buffers on both sides hold, so every response backs up. */
const FILE_BYTES = 16 * 1024 * 1024;
/** Catches a hang only; the release itself takes about one send timeout. */
const HANG_MS = 25_000;

const folder = mkdtempSync(join(tmpdir(), 'switchboard-send-timeout-'));
const file = join(folder, 'large.bin');
writeFileSync(file, Buffer.alloc(FILE_BYTES, 'x'));

/** File descriptors of this process open on the large file: one per response reading it. */
function openOnFile(): number {
  let count = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) === file) count += 1;
    } catch {
      // Closed between the listing and the look.
    }
  }
  return count;
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + HANG_MS;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Still waiting after ${HANG_MS} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

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
  'GET /crowded-events': crowdedStream,
  'GET /quiet-events': quietStream,
});

function sendTimeoutLines(logger: MemoryLogger, protocol: string): number {
  return logger.records.filter((record) => record.message.startsWith('Send timeout:') && record.context['protocol'] === protocol).length;
}

/** Opens a connection, sends one request and never reads. */
function nonReadingClient(connect: () => net.Socket, event: string, path: string): net.Socket {
  const socket = connect();
  socket.once(event, () => socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`));
  // Paused from the start: node stops reading once its own small buffer is full, then the kernel's
  // fills. (A paused client does not see the server close either: counted on the server's side.)
  socket.pause();
  socket.on('error', () => undefined);
  return socket;
}

/** Counts the connections (or HTTP/2 streams) `server` opened and those that closed since. */
function closesOn(server: TestServer, event: 'connection' | 'stream'): { opened: number; closed: number } {
  const counts = { opened: 0, closed: 0 };
  server.server.on(event, (opened: net.Socket | http2.ServerHttp2Stream) => {
    counts.opened += 1;
    opened.once('close', () => (counts.closed += 1));
  });
  return counts;
}

afterAll(() => rmSync(folder, { recursive: true, force: true }));

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
});
