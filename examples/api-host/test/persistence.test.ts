import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { MemoryLogger } from '@switchboard/http-kernel';
import { securityConfigFromEnv } from '../src/security/security-config.js';
import { startHostProcess, type HostProcess } from './support/start-host.js';

/**
 * The embedded database keeps its data in a folder: an item created through the API is still
 * there after a real restart of the host process, and a second host on the same folder stops
 * with a clear message instead of opening it twice.
 */
const scratch = mkdtempSync(join(tmpdir(), 'api-host-persistence-'));
const keys = securityConfigFromEnv({}, new MemoryLogger(), scratch);
const env = {
  APP_DEBUG: '0',
  PGLITE_DATA_DIR: join(scratch, 'pglite'),
  JWT_SECRET_KEY: keys.privateKeyPath,
  JWT_PUBLIC_KEY: keys.publicKeyPath,
  JWT_PASSPHRASE: keys.passphrase!,
};
const started: HostProcess[] = [];

afterAll(async () => {
  for (const host of started) if (host.child.exitCode === null) host.child.kill('SIGKILL');
  await Promise.all(started.map((host) => host.exited));
  rmSync(scratch, { recursive: true, force: true });
});

async function start(): Promise<HostProcess> {
  const host = await startHostProcess(env);
  started.push(host);
  return host;
}

async function stop(host: HostProcess): Promise<void> {
  host.child.kill('SIGTERM');
  expect(await host.exited).toBe(0);
}

it('keeps items across a restart, and refuses a second host on the same folder', async () => {
  const first = await start();
  const base = await first.url;
  const login = await fetch(`${base}/api/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'demo', password: 'demo-password' }),
  });
  const { token } = (await login.json()) as { token: string };
  const created = await fetch(`${base}/api/items`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ name: 'kept across restarts', quantity: 3 }),
  });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: number };

  const second = await start();
  await expect(second.url).rejects.toThrow(/exited with 78/);
  expect(second.log()).toContain(`in use by process ${first.child.pid}`);
  // The refusal prints its message and nothing after it (the password checker process, which shares
  // the pipe, printed an ERR_IPC_CHANNEL_CLOSED stack when it finished loading after the host exited).
  const stderr = second.child.stderr!;
  if (!stderr.closed) await once(stderr, 'close');
  expect(second.log().slice(second.log().indexOf('Configuration error:'))).toMatch(/^Configuration error: [^\n]*\n$/);

  await stop(first);
  const restarted = await start();
  const shown = await fetch(`${await restarted.url}/api/items/${id}`, { headers: { accept: 'application/json' } });
  expect(shown.status).toBe(200);
  expect(await shown.json()).toMatchObject({ id, name: 'kept across restarts', quantity: 3 });
  await stop(restarted);
});
