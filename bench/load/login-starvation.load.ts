/**
 * Logins must not starve the API: 25 logins are kept in flight against the example host
 * (production mode, its own process) while 10 clients call `GET /api/me` with a valid token for
 * `LOAD_SECONDS` (default 20). Each login client sends its next login as soon as it has an answer,
 * and after a 503 waits its Retry-After (`LOAD_FLOOD=1`: at once, the hostile pattern). Reports the
 * latency of `/api/me` (p50, p99, max; target p99 < 50 ms), login outcomes, and the host's peak RSS.
 *
 * Run: `npx -y pnpm@10.34.8 --filter @switchboard/bench load:logins`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nullLogger } from '@switchboard/http-kernel';
import { securityConfigFromEnv } from '../../examples/api-host/src/wiring/security.js';
import { machineLine } from '../report.js';

const seconds = Number(process.env.LOAD_SECONDS ?? 20);
/** `LOAD_FLOOD=1`: a refused login is sent again at once, ignoring Retry-After. */
const flood = process.env.LOAD_FLOOD === '1';
const LOGINS_IN_FLIGHT = Number(process.env.LOAD_LOGINS ?? 25);
const ME_CLIENTS = 10;
const hostDir = fileURLToPath(new URL('../../examples/api-host/', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'bench-logins-'));
const keys = securityConfigFromEnv({}, nullLogger, scratch);

const child = spawn(process.execPath, ['--conditions=@switchboard/source', '--import', 'tsx', 'src/main.ts'], {
  cwd: hostDir,
  env: {
    ...process.env,
    APP_DEBUG: '0',
    PORT: '0',
    APP_HOST: '127.0.0.1',
    PGLITE_DATA_DIR: 'memory://',
    JWT_SECRET_KEY: keys.privateKeyPath,
    JWT_PUBLIC_KEY: keys.publicKeyPath,
    JWT_PASSPHRASE: keys.passphrase!,
  },
  stdio: ['ignore', 'pipe', 'ignore'],
});
const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
const url = await new Promise<string>((resolve, reject) => {
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
    const match = /listening on (\S+)/.exec(output);
    if (match !== null) resolve(match[1]!);
  });
  void exited.then(() => reject(new Error(`host exited: ${output}`)));
});

const login = (password: string) =>
  fetch(`${url}/api/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'demo', password }),
  });
const { token } = (await (await login('demo-password')).json()) as { token: string };

const deadline = performance.now() + seconds * 1000;
const outcomes = new Map<number, number>();
const latencies: number[] = [];
let peakRss = 0;
const rssTimer = setInterval(() => {
  try {
    const kib = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0);
    peakRss = Math.max(peakRss, kib / 1024);
  } catch {
    // the host has exited
  }
}, 200);

async function loginLoop(): Promise<void> {
  while (performance.now() < deadline) {
    const response = await login('wrong-password');
    await response.arrayBuffer();
    outcomes.set(response.status, (outcomes.get(response.status) ?? 0) + 1);
    const retryAfter = Number(response.headers.get('retry-after') ?? 0);
    if (response.status === 503 && !flood)
      await new Promise((resolve) => setTimeout(resolve, Math.min(retryAfter * 1000, deadline - performance.now())));
  }
}

let wrong = 0;
async function meLoop(): Promise<void> {
  while (performance.now() < deadline) {
    const started = performance.now();
    const response = await fetch(`${url}/api/me`, { headers: { authorization: `Bearer ${token}` } });
    await response.arrayBuffer();
    latencies.push(performance.now() - started);
    if (response.status !== 200) wrong++;
  }
}

await Promise.all([...Array.from({ length: LOGINS_IN_FLIGHT }, loginLoop), ...Array.from({ length: ME_CLIENTS }, meLoop)]);
clearInterval(rssTimer);
child.kill('SIGTERM');
await exited;
rmSync(scratch, { recursive: true, force: true });

latencies.sort((a, b) => a - b);
const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(1);
console.log(machineLine());
console.log(
  `${seconds} s, ${LOGINS_IN_FLIGHT} login clients (${flood ? 'retrying 503s at once' : 'honouring Retry-After'}), ${ME_CLIENTS} clients on GET /api/me`,
);
console.log(`GET /api/me: ${latencies.length} answers (${wrong} not 200), p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms`);
console.log(`logins: ${[...outcomes].map(([status, count]) => `${count} × ${status}`).join(', ')}`);
console.log(`host peak RSS ${peakRss.toFixed(0)} MiB`);
