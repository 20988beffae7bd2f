import { chmodSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MemoryLogger } from '@switchboard/http-kernel';
import { pgliteDataFolder, type PgliteDataFolder } from '../../../test/kit/services/pglite-data.js';
import { rawExchange } from '../../../test/kit/raw-http.js';
import { securityConfigFromEnv } from '../src/security/security-config.js';
import { listeningSockets, processTree } from './support/process-sockets.js';
import { startHostProcess, type HostProcess } from './support/start-host.js';

/**
 * The embedded database is queried in the host's process: the host process (and the password
 * checker it starts) listens on the HTTP port and nothing else, so no local process can talk to
 * the database past the API; its folder is private to the host's user; concurrent requests are
 * served one database turn at a time without losing or mixing writes. The real `pnpm start`
 * process, in production mode, given its data folder through a symbolic link.
 */
const scratch = mkdtempSync(join(tmpdir(), 'api-host-embedded-'));
const keys = securityConfigFromEnv({}, new MemoryLogger(), scratch);
const link = join(scratch, 'pglite-link');
let folder: PgliteDataFolder;
let host: HostProcess;
let base: string;

beforeAll(async () => {
  folder = await pgliteDataFolder();
  // As a umask of 000 or an unpacked archive would leave them: open to group and other.
  chmodSync(folder.path, 0o777);
  chmodSync(join(folder.path, 'base'), 0o755);
  chmodSync(join(folder.path, 'postgresql.conf'), 0o666);
  // A link is what the host is told: the folder it leads to is the one to make private.
  symlinkSync(folder.path, link);
  host = await startHostProcess({
    APP_DEBUG: '0',
    PGLITE_DATA_DIR: link,
    // Forty requests queue for the one session; on a busy machine the last may wait longer than the default bound.
    DATABASE_TIMEOUT: '60',
    JWT_SECRET_KEY: keys.privateKeyPath,
    JWT_PUBLIC_KEY: keys.publicKeyPath,
    JWT_PASSPHRASE: keys.passphrase!,
  });
  base = await host.url;
  // Only a guard against a hang: a start on a busy machine can take minutes.
}, 300_000);

afterAll(async () => {
  if (host !== undefined && host.child.exitCode === null) host.child.kill('SIGTERM');
  await host?.exited;
  await folder?.remove();
  rmSync(scratch, { recursive: true, force: true });
});

it.skipIf(process.platform !== 'linux')(
  'the host and its child processes listen on the HTTP port only: no database socket to reach',
  async () => {
    const tree = processTree(host.child.pid!);
    // The host and its password checker.
    expect(tree.length).toBeGreaterThanOrEqual(2);
    expect(listeningSockets(tree)).toEqual({ tcpPorts: [Number(new URL(base).port)], unixSockets: [] });

    // So the review's startup packet with a negative length can only reach the HTTP parser, which refuses it.
    const packet = Buffer.concat([Buffer.from([0x7f, 0xff, 0xff, 0xff, 0x00, 0x03, 0x00, 0x00]), Buffer.alloc(300, 0x41)]).toString(
      'latin1',
    );
    // The host closes the connection after its 400: the wait is only a guard against a hang.
    expect(await rawExchange(Number(new URL(base).port), packet, { waitMs: 60_000 })).toMatch(/^HTTP\/1\.1 400 /);
    expect((await fetch(`${base}/health`)).status).toBe(200);
  },
);

it.skipIf(process.platform !== 'linux')("the password checker's environment holds none of the host's secrets", () => {
  const checker = processTree(host.child.pid!).find((pid) =>
    readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('password-hasher-child'),
  )!;
  const environ = readFileSync(`/proc/${checker}/environ`, 'utf8');
  expect(readFileSync(`/proc/${host.child.pid}/environ`, 'utf8')).toContain(keys.passphrase!);
  expect(environ).not.toContain(keys.passphrase!);
  expect(environ).not.toContain('JWT_');
  expect(environ).not.toContain('PGLITE_DATA_DIR');
});

it('makes the data folder a link leads to private: folders 0700, no file readable by group or other', () => {
  expect(lstatSync(link).isSymbolicLink()).toBe(true);
  const open: string[] = [];
  const visit = (path: string): void => {
    const stat = statSync(path);
    if ((stat.mode & 0o077) !== 0) open.push(`${path} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const entry of readdirSync(path)) visit(join(path, entry));
  };
  visit(folder.path);
  expect(statSync(folder.path).mode & 0o777).toBe(0o700);
  expect(open).toEqual([]);
});

it('serves concurrent writes and reads on the one embedded session without losing or mixing any', async () => {
  const login = await fetch(`${base}/api/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'demo', password: 'demo-password' }),
  });
  const { token } = (await login.json()) as { token: string };
  const create = (index: number) =>
    fetch(`${base}/api/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ name: `concurrent ${index}`, quantity: index }),
    });
  const answers = await Promise.all([
    ...Array.from({ length: 30 }, (_, index) => create(index)),
    ...Array.from({ length: 10 }, () => fetch(`${base}/api/items`, { headers: { accept: 'application/json' } })),
  ]);
  expect(answers.map((answer) => answer.status).sort()).toEqual([...Array(10).fill(200), ...Array(30).fill(201)]);
  const created = (await Promise.all(answers.slice(0, 30).map((answer) => answer.json()))) as Array<{
    id: number;
    name: string;
    quantity: number;
  }>;
  expect(new Set(created.map((item) => item.id)).size).toBe(30);
  for (const item of created) expect(item.name).toBe(`concurrent ${item.quantity}`);
  const listed = (await (await fetch(`${base}/api/items`)).json()) as Array<{ id: number }>;
  expect(listed.map((item) => item.id).sort((a, b) => a - b)).toEqual(created.map((item) => item.id).sort((a, b) => a - b));
});
