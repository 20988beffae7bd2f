import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, expect, it } from 'vitest';
import { loginToken } from './support/clients.js';
import { jwtKeyEnv, startHostProcess, type HostProcess } from './support/start-host.js';

/**
 * A host process killed in the middle of an upload leaves its temporary folder behind; the next
 * host started on the same temporary directory deletes it, and leaves alone the folder of a
 * process that still runs (this test's).
 */
const scratch = mkdtempSync(join(tmpdir(), 'api-host-uploads-'));
const temporary = join(scratch, 'tmp');
mkdirSync(temporary, { mode: 0o700 });
const env = { APP_DEBUG: '0', TMPDIR: temporary, ...jwtKeyEnv(scratch) };
let first: HostProcess | undefined;
let second: HostProcess | undefined;
afterAll(async () => {
  for (const host of [first, second]) if (host?.child.exitCode === null) host.child.kill('SIGKILL');
  await Promise.all([first?.exited, second?.exited]);
  rmSync(scratch, { recursive: true, force: true });
});

const uploadFolders = (): string[] => readdirSync(temporary).filter((name) => name.startsWith('switchboard-upload-'));

/** Sends the head and the first 256 KiB of a 1 MiB import, then stops writing: the upload is under way. */
async function beginImport(base: string, token: string): Promise<net.Socket> {
  const boundary = 'leftover-boundary';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="items.jsonl"\r\nContent-Type: application/jsonl\r\n\r\n`;
  const length = head.length + 1024 * 1024 + `\r\n--${boundary}--\r\n`.length;
  const { hostname, port } = new URL(base);
  const socket = net.connect({ host: hostname, port: Number(port) });
  socket.on('error', () => undefined);
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(
    `POST /api/items/import HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${token}\r\n` +
      `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${length}\r\n\r\n${head}`,
  );
  socket.write(`${'{"name":"x","quantity":1}\n'.repeat(10_000)}`.slice(0, 256 * 1024));
  return socket;
}

it('deletes the upload folders of a host killed mid-upload at the next start, never a live process’s', async () => {
  first = await startHostProcess(env);
  const base = await first.url;
  const socket = await beginImport(base, await loginToken(base, 'admin'));
  // The file is past the in-memory size: the host writes it to a folder of its own (bounded wait).
  for (let round = 0; round < 600 && uploadFolders().length === 0; round++) await sleep(100);
  const abandoned = uploadFolders();
  expect(abandoned).toHaveLength(1);
  first.child.kill('SIGKILL');
  await first.exited;
  socket.destroy();
  expect(uploadFolders()).toEqual(abandoned);

  // What another process still running (this one) is writing.
  const live = `switchboard-upload-${process.pid}-live01`;
  mkdirSync(join(temporary, live), { mode: 0o700 });

  second = await startHostProcess(env);
  await second.url;
  expect(uploadFolders()).toEqual([live]);
  expect(second.log()).toMatch(/removed 1 temporary folder/);
  second.child.kill('SIGTERM');
  expect(await second.exited).toBe(0);
});
