import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** A database for a test: where to connect, and how to end it (drop the database, or stop its server). */
export interface TestDatabase {
  readonly kind: string;
  readonly connectionString: string;
  stop(): Promise<void>;
}

/** Idleness after which `idleDroppingDatabase()`'s sessions are dropped: short, so a test can wait it out. */
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
 * `postgres` user when we are root, which the server refuses). The run has one
 * (`test/support/run-postgres.ts`); tests take databases on it (`createTestDatabase`).
 */
export async function startPostgres(): Promise<TestDatabase> {
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
  const options = `-h 127.0.0.1 -p ${port} -k ${dir} -c fsync=off`;
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

/** Where the run's PostgreSQL server is (set by the global setup `test/support/run-postgres.ts`). */
export const RUN_POSTGRES_URL_ENV = 'SWITCHBOARD_TEST_POSTGRES_URL';

let databaseCount = 0;

/**
 * A new, empty database on the run's PostgreSQL server, for one test; `stop()` drops it. One server
 * serves the whole run: a database costs it about 30 ms, where a server of its own costs initdb, and
 * the embedded engine costs each host process seconds of CPU to start. With `idleSessionTimeoutMs`,
 * the server ends this database's sessions once they sat idle that long.
 */
export async function createTestDatabase({ idleSessionTimeoutMs }: { idleSessionTimeoutMs?: number } = {}): Promise<TestDatabase> {
  const serverUrl = process.env[RUN_POSTGRES_URL_ENV];
  if (serverUrl === undefined) {
    throw new Error(`${RUN_POSTGRES_URL_ENV} is not set: the global setup test/support/run-postgres.ts starts the run's server.`);
  }
  databaseCount += 1;
  const name = `test_${process.pid}_${databaseCount}`;
  await onServer(serverUrl, async (client) => {
    // fsync is off on test servers: copying the template's files beats writing each block to the WAL.
    await client.query(`CREATE DATABASE ${name} STRATEGY FILE_COPY`);
    if (idleSessionTimeoutMs !== undefined) await client.query(`ALTER DATABASE ${name} SET idle_session_timeout = ${idleSessionTimeoutMs}`);
  });
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    kind: 'PostgreSQL',
    connectionString: url.href,
    stop: () => onServer(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)),
  };
}

/**
 * Ends `pool` and waits until its connections are closed. `pool.end()` resolves once it has let go
 * of its clients, before their connections close: a database dropped meanwhile (`stop()` ends its
 * sessions) fails them, and the pool rethrows that error where nothing listens.
 */
export async function endPool(pool: pg.Pool): Promise<void> {
  const open = pool.totalCount;
  let closed = 0;
  const allClosed = new Promise<void>((resolve) => {
    if (open === 0) resolve();
    pool.on('remove', () => {
      if (++closed === open) resolve();
    });
  });
  await pool.end();
  await allClosed;
}

async function onServer(url: string, work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

/** A test database whose idle sessions the server drops after `SERVER_IDLE_TIMEOUT_MS`, as servers and poolers do. */
export function idleDroppingDatabase(): Promise<TestDatabase> {
  return createTestDatabase({ idleSessionTimeoutMs: SERVER_IDLE_TIMEOUT_MS });
}
