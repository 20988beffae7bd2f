import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MemoryLogger } from '@switchboard/http-kernel';
import { serve, type RunningServer, type TlsOptions } from '@switchboard/node-adapter';
import { scryptPasswordHasher } from '@switchboard/security';
import { createTestClient, type TestClient } from '@switchboard/testing';
import { createTestDatabase } from '../../../../test/kit/services/database-servers.js';
import { createApp, type App } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { securityConfigFromEnv } from '../../src/security/security-config.js';

/** Any free port of 127.0.0.1. */
export const TEST_DEFAULTS = { PORT: '0', APP_HOST: '127.0.0.1' };

/**
 * The shipped demo users (config/security-users.json: same names, roles and passwords
 * `<username>-password`), hashed at a low scrypt cost, for every test host that names no users file.
 * Password checks run at nice 19 and get little CPU while the machine is busy, and what the tests
 * prove (the firewall, the login queue, the checker process) does not depend on the cost; the
 * shipped file's cost is checked by security.test.ts. Written once per test process, under the
 * run's TMPDIR.
 */
let cheapUsersFile: Promise<string> | undefined;
function testUsersFile(): Promise<string> {
  cheapUsersFile ??= (async () => {
    const shipped = JSON.parse(await readFile(new URL('../../config/security-users.json', import.meta.url), 'utf8')) as {
      users: Array<{ username: string; roles: string[] }>;
    };
    const users = await Promise.all(
      shipped.users.map(async ({ username, roles }) => ({
        username,
        roles,
        password: await scryptPasswordHasher.hash(`${username}-password`, { N: 2 ** 10, r: 8, p: 1 }),
      })),
    );
    const file = join(await mkdtemp(join(tmpdir(), 'api-host-users-')), 'security-users.json');
    await writeFile(file, JSON.stringify({ users }));
    return file;
  })();
  return cheapUsersFile;
}

/** The `JWT_*` variables of a host process whose key pair is made in `folder` (a test's own scratch folder). */
export function jwtKeyEnv(folder: string): Record<'JWT_SECRET_KEY' | 'JWT_PUBLIC_KEY' | 'JWT_PASSPHRASE', string> {
  const keys = securityConfigFromEnv({}, new MemoryLogger(), folder);
  return { JWT_SECRET_KEY: keys.privateKeyPath, JWT_PUBLIC_KEY: keys.publicKeyPath, JWT_PASSPHRASE: keys.passphrase! };
}

async function testEnv(env: Record<string, string>): Promise<Record<string, string>> {
  return { ...TEST_DEFAULTS, SECURITY_USERS_FILE: await testUsersFile(), ...env };
}

/**
 * The database of a test host: what `env` names (`DATABASE_URL`, or `PGLITE_DATA_DIR` for the
 * embedded engine), or else a new database of its own on the run's PostgreSQL server, dropped when
 * the host stops. The embedded engine costs a host seconds of CPU to start; the tests of the
 * embedded database itself name their folder.
 */
async function testDatabase(env: Record<string, string>): Promise<{ env: { DATABASE_URL?: string }; remove(): Promise<void> }> {
  if (env['PGLITE_DATA_DIR'] !== undefined || env['DATABASE_URL'] !== undefined) return { env: {}, remove: async () => undefined };
  const database = await createTestDatabase();
  return { env: { DATABASE_URL: database.connectionString }, remove: () => database.stop() };
}

export interface StartedHost {
  app: App;
  running: RunningServer;
  logger: MemoryLogger;
  stop(): Promise<void>;
}

export interface BuiltHost {
  app: App;
  logger: MemoryLogger;
  /** The test client of `app.kernel`, in process (`@switchboard/testing`). */
  client: TestClient;
  stop(): Promise<void>;
}

/** The example host in this process, as main.ts wires it, without listening: requests go through the test client. */
export async function buildHostInProcess(env: Record<string, string> = {}): Promise<BuiltHost> {
  const database = await testDatabase(env);
  try {
    const { app, logger } = await createTestApp(env, database.env);
    const { baseUrl, trustedHosts, trustedProxies } = app.config;
    // Served as main.ts serves it: the same public origin, trusted hosts and proxies.
    const client = createTestClient(app.kernel, {
      trustedHosts,
      trustedProxies,
      adapter: { logger, ...(baseUrl === null ? {} : { baseUrl }) },
    });
    return {
      app,
      logger,
      client,
      async stop() {
        await client.settled();
        await app.shutdown();
        await database.remove();
      },
    };
  } catch (error) {
    await database.remove();
    throw error;
  }
}

async function createTestApp(
  env: Record<string, string>,
  databaseEnv: { DATABASE_URL?: string },
): Promise<{ app: App; logger: MemoryLogger }> {
  const config = loadConfig({ ...process.env, ...databaseEnv, API_HOST_CONFIG: '', ...(await testEnv(env)) });
  const logger = new MemoryLogger();
  return { app: await createApp(config, { logger }), logger };
}

/** The example host in this process, as main.ts wires it, on a free port of 127.0.0.1. */
export async function startHostInProcess(env: Record<string, string> = {}, tls?: TlsOptions): Promise<StartedHost> {
  const database = await testDatabase(env);
  try {
    const { app, logger } = await createTestApp(env, database.env);
    const config = app.config;
    const running = await serve(app.kernel, {
      port: 0,
      handleSignals: false,
      trustedProxies: config.trustedProxies,
      ...(tls === undefined ? {} : { tls }),
      ...(config.baseUrl === null ? {} : { baseUrl: config.baseUrl }),
      trustedHosts: config.trustedHosts,
      logger,
      answerHeaders: app.answerHeaders,
      onShutdownStart: () => app.readiness.startDraining(),
      onShutdown: () => app.shutdown(),
    });
    return {
      app,
      running,
      logger,
      async stop() {
        await running.close();
        await database.remove();
      },
    };
  } catch (error) {
    await database.remove();
    throw error;
  }
}

export interface HostProcess {
  child: ChildProcess;
  /** Everything written to stdout so far. */
  output: () => string;
  /** Everything written to stderr so far (the log lines). */
  log: () => string;
  /** The URL from the startup line. */
  url: Promise<string>;
  exited: Promise<number | null>;
}

/** How a test starts the host process. */
export interface HostCommand {
  command: string;
  args: string[];
  /** Relative to the host's folder. */
  cwd: string;
  /** In a process group of its own (the child's pid is the group's id), as a terminal starts a command. */
  detached?: boolean;
}

/**
 * `node dist/main.js`, the command behind `pnpm start:prod`: the host as built JavaScript, which
 * the run's global setup (`test/support/built-packages.ts`) compiles from the current sources.
 */
export const BUILT_HOST: HostCommand = { command: process.execPath, args: ['dist/main.js'], cwd: '.' };

/** `pnpm start` from the repository root, as a user types it, in its own process group. */
export const PNPM_START: HostCommand = { command: 'npx', args: ['-y', 'pnpm@10.34.8', 'start'], cwd: '../..', detached: true };

/**
 * The host as a process (by default `BUILT_HOST`), with `env` over this environment; the database
 * made for it, if any, is dropped once it has exited.
 */
export async function startHostProcess(env: Record<string, string>, how: HostCommand = BUILT_HOST): Promise<HostProcess> {
  const database = await testDatabase(env);
  const child = spawn(how.command, how.args, {
    cwd: fileURLToPath(new URL(`../../${how.cwd}`, import.meta.url)),
    env: { ...process.env, ...database.env, ...(await testEnv(env)) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: how.detached ?? false,
  });
  let output = '';
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => (output += chunk));
  let log = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => (log += chunk));
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      void database.remove().then(() => resolve(code));
    }),
  );
  const url = new Promise<string>((resolve, reject) => {
    // Only a guard against a hang: a start on a loaded machine can take tens of seconds.
    const timer = setTimeout(() => reject(new Error(`no startup line within 200 s; output: ${output}`)), 200_000);
    const check = (): void => {
      const match = /listening on (\S+)/.exec(output);
      if (match === null) return;
      clearTimeout(timer);
      child.stdout!.off('data', check);
      resolve(match[1]!);
    };
    child.stdout!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before listening; output: ${output}`));
    });
  });
  url.catch(() => undefined);
  return { child, output: () => output, log: () => log, url, exited };
}
