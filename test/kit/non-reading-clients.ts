import { mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import type http2 from 'node:http2';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MemoryLogger } from '@switchboard/http-kernel';
import type { ServedKernel } from './serve.js';

/**
 * Helpers for clients that send a request and then never read (the send timeout's tests): such a
 * client, a file large enough to back up, counts of the server's connections or streams that
 * closed, the file descriptors of this process still open on a file, and the send-timeout log lines.
 */

/** Catches a hang only; a release takes about one send timeout. */
export const HANG_MS = 25_000;

/** Far more than the kernel's socket buffers on both sides hold: a response of this size backs up. */
export const BACKED_UP_BYTES = 16 * 1024 * 1024;

/** A scratch folder holding `large.bin` of `BACKED_UP_BYTES`; `remove()` deletes the folder. */
export function largeFile(prefix: string): { folder: string; file: string; remove(): void } {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  const file = join(folder, 'large.bin');
  writeFileSync(file, Buffer.alloc(BACKED_UP_BYTES, 'x'));
  return { folder, file, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

/** File descriptors of this process open on `file`: one per response reading it. */
export function descriptorsOpenOn(file: string): number {
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

/** Resolves once `condition` holds; throws after `HANG_MS` (a hang, never a timing assertion). */
export async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + HANG_MS;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Still waiting after ${HANG_MS} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** How many `Send timeout:` lines `logger` holds for `protocol` (`HTTP/1` or `HTTP/2`). */
export function sendTimeoutLines(logger: MemoryLogger, protocol: string): number {
  return logger.records.filter((record) => record.message.startsWith('Send timeout:') && record.context['protocol'] === protocol).length;
}

/** Opens a connection, sends one request and never reads. */
export function nonReadingClient(connect: () => net.Socket, event: string, path: string): net.Socket {
  const socket = connect();
  socket.once(event, () => socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`));
  // Paused from the start: node stops reading once its own small buffer is full, then the kernel's
  // fills. (A paused client does not see the server close either: counted on the server's side.)
  socket.pause();
  socket.on('error', () => undefined);
  return socket;
}

/** Counts the connections (or HTTP/2 streams) `server` opened and those that closed since. */
export function closesOn(server: ServedKernel, event: 'connection' | 'stream'): { opened: number; closed: number } {
  const counts = { opened: 0, closed: 0 };
  server.server.on(event, (opened: net.Socket | http2.ServerHttp2Stream) => {
    counts.opened += 1;
    opened.once('close', () => (counts.closed += 1));
  });
  return counts;
}

/**
 * Opens `count` clients that ask for `path` on `server` and never read, and resolves once the
 * server has closed every one of their connections and no descriptor is open on `file` (checked
 * before the clients close their side). The clients are destroyed in the end.
 */
export async function releasedClients(server: ServedKernel, count: number, path: string, file: string): Promise<void> {
  const connections = closesOn(server, 'connection');
  const sockets = Array.from({ length: count }, () =>
    nonReadingClient(() => net.connect({ port: server.port, host: '127.0.0.1' }), 'connect', path),
  );
  try {
    await until(() => connections.opened === count, 'every connection accepted');
    await until(() => connections.closed === count, 'the server closing every connection');
    await until(() => descriptorsOpenOn(file) === 0, 'every file descriptor closed');
  } finally {
    for (const socket of sockets) socket.destroy();
  }
}
