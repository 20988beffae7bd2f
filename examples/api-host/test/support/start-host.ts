import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { MemoryLogger } from '@switchboard/http-kernel';
import { serve, type RunningServer, type TlsOptions } from '@switchboard/node-adapter';
import { createApp, type App } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';

/** Any free port of 127.0.0.1, and an in-memory database, so that test hosts never share a data folder. */
export const TEST_DEFAULTS = { PORT: '0', APP_HOST: '127.0.0.1', PGLITE_DATA_DIR: 'memory://' };

export interface StartedHost {
  app: App;
  running: RunningServer;
  logger: MemoryLogger;
  stop(): Promise<void>;
}

/** The example host in this process, as main.ts wires it, on a free port of 127.0.0.1. */
export async function startHostInProcess(env: Record<string, string> = {}, tls?: TlsOptions): Promise<StartedHost> {
  const config = loadConfig({ ...process.env, ...TEST_DEFAULTS, API_HOST_CONFIG: '', ...env });
  const logger = new MemoryLogger();
  const app = await createApp(config, { logger });
  const running = await serve(app.kernel, {
    port: 0,
    handleSignals: false,
    ...(tls === undefined ? {} : { tls }),
    ...(config.baseUrl === null ? {} : { baseUrl: config.baseUrl }),
    logger,
    onShutdown: () => app.shutdown(),
  });
  return { app, running, logger, stop: () => running.close() };
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

/** `node --import tsx src/main.ts`, the command behind `pnpm start`, with `env` over this environment. */
export function startHostProcess(env: Record<string, string>): HostProcess {
  const main = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
  const child = spawn(process.execPath, ['--conditions=@switchboard/source', '--import', 'tsx', main], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    env: { ...process.env, ...TEST_DEFAULTS, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => (output += chunk));
  let log = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => (log += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = new Promise<string>((resolve, reject) => {
    // Only a guard against a hang: a start on a loaded machine can take tens of seconds.
    const timer = setTimeout(() => reject(new Error(`no startup line within 100 s; output: ${output}`)), 100_000);
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
