import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A database server for a test: where to connect and how to stop it. */
export interface TestDatabaseServer {
  readonly kind: string;
  readonly connectionString: string;
  stop(): Promise<void>;
}

/** Seconds of idleness after which the server drops a connection: short, so a test can wait it out. */
export const SERVER_IDLE_TIMEOUT_MS = 1000;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function postgresBinaries(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'postgres'))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (newest === undefined) {
    throw new Error(
      "PostgreSQL server binaries not found (/usr/lib/postgresql/*/bin/postgres). Install Debian's `postgresql` " +
        'package, or run `bash scripts/system-deps.sh` as root.',
    );
  }
  return join(root, newest, 'bin');
}

/**
 * A real PostgreSQL server in a temporary data directory, on 127.0.0.1 and a free port (run as the
 * `postgres` user when we are root, which the server refuses), dropping sessions idle for
 * `SERVER_IDLE_TIMEOUT_MS`.
 */
export async function startPostgres(): Promise<TestDatabaseServer> {
  const bin = postgresBinaries();
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-pg-'));
  await chmod(dir, 0o700);
  // The server refuses to run as root: as root, hand the directory to the `postgres` user and run as it.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { stdout: uid } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    await chown(dir, Number(uid), Number(gid));
  }
  const data = join(dir, 'data');
  const asPostgres = (tool: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', join(bin, tool), ...args], { timeout: 60_000 })
      : run(join(bin, tool), args, { timeout: 60_000 });
  await asPostgres('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const port = await freePort();
  const options = `-h 127.0.0.1 -p ${port} -k ${dir} -c idle_session_timeout=${SERVER_IDLE_TIMEOUT_MS} -c fsync=off`;
  await asPostgres('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  return {
    kind: 'PostgreSQL',
    connectionString: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await asPostgres('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
