/**
 * Logins must not starve the API: against the example host (production mode, its own process),
 * 10 clients call `GET /api/me` with a valid token for 5 s (warm-up, not counted), for
 * `LOAD_SECONDS` (default 20) alone (the baseline), then as long again while 25 logins are kept in flight. Each login client sends its
 * next login as soon as it has an answer, and after a 503 waits its Retry-After (`LOAD_FLOOD=1`: at
 * once, the hostile pattern). Reports, for both phases, the latency of `/api/me` (p50, p99, max;
 * target p99 < 50 ms with the logins) and the ratio between them, the login outcomes, the peak RSS
 * of the host and its password checker process together, and the load average (the machine is
 * shared).
 *
 * Run: `npx -y pnpm@10.34.8 --filter @switchboard/bench load:logins`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nullLogger } from '@switchboard/http-kernel';
import { securityConfigFromEnv } from '../../examples/api-host/src/security/security-config.js';
import { machineLine } from '../report.js';

const seconds = Number(process.env.LOAD_SECONDS ?? 20);
/** `LOAD_FLOOD=1`: a refused login is sent again at once, ignoring Retry-After. */
const flood = process.env.LOAD_FLOOD === '1';
const LOGINS_IN_FLIGHT = Number(process.env.LOAD_LOGINS ?? 25);
const ME_CLIENTS = 10;
const WARM_UP_SECONDS = 5;
const hostDir = fileURLToPath(new URL('../../examples/api-host/', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'bench-logins-'));
const keys = securityConfigFromEnv({}, nullLogger, scratch);

const child = spawn(process.execPath, ['--conditions=@switchboard/source', '--import', 'tsx', 'src/main.ts'], {
  cwd: hostDir,
  env: {
    ...process.env,
    APP_DEBUG: '0',
    // The demo accounts, on purpose: the bench logs in as them.
    ALLOW_DEMO_USERS: '1',
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

/** Resident memory of the host and its child processes (the password checker), MiB. */
function hostRss(): number {
  let kib = 0;
  const children = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(' ').filter(Boolean);
  for (const pid of [String(child.pid), ...children]) {
    kib += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  }
  return kib / 1024;
}

interface Phase {
  latencies: number[];
  wrong: number;
  outcomes: Map<number, number>;
  peakRss: number;
  load: string;
}

/** `ME_CLIENTS` on `/api/me` and `logins` login clients for `length` seconds. */
async function phase(logins: number, length = seconds): Promise<Phase> {
  const deadline = performance.now() + length * 1000;
  const result: Phase = { latencies: [], wrong: 0, outcomes: new Map(), peakRss: 0, load: '' };
  const rssTimer = setInterval(() => {
    try {
      result.peakRss = Math.max(result.peakRss, hostRss());
    } catch {
      // a process exited between the two reads
    }
  }, 200);

  async function loginLoop(): Promise<void> {
    while (performance.now() < deadline) {
      const response = await login('wrong-password');
      await response.arrayBuffer();
      result.outcomes.set(response.status, (result.outcomes.get(response.status) ?? 0) + 1);
      const retryAfter = Number(response.headers.get('retry-after') ?? 0);
      if (response.status === 503 && !flood)
        await new Promise((resolve) => setTimeout(resolve, Math.min(retryAfter * 1000, deadline - performance.now())));
    }
  }

  async function meLoop(): Promise<void> {
    while (performance.now() < deadline) {
      const started = performance.now();
      const response = await fetch(`${url}/api/me`, { headers: { authorization: `Bearer ${token}` } });
      await response.arrayBuffer();
      result.latencies.push(performance.now() - started);
      if (response.status !== 200) result.wrong++;
    }
  }

  await Promise.all([...Array.from({ length: logins }, loginLoop), ...Array.from({ length: ME_CLIENTS }, meLoop)]);
  clearInterval(rssTimer);
  result.load = loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');
  result.latencies.sort((a, b) => a - b);
  return result;
}

// Not counted: the first seconds of a fresh host are compilation and warm-up, which would burden the baseline.
await phase(0, WARM_UP_SECONDS);
const baseline = await phase(0);
const withLogins = await phase(LOGINS_IN_FLIGHT);
child.kill('SIGTERM');
await exited;
rmSync(scratch, { recursive: true, force: true });

const at = (latencies: number[], q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
const describe = ({ latencies, wrong, peakRss, load }: Phase) =>
  `${latencies.length} answers (${wrong} not 200), p50 ${at(latencies, 0.5).toFixed(1)} ms, p99 ${at(latencies, 0.99).toFixed(1)} ms, max ${at(latencies, 1).toFixed(1)} ms; peak RSS ${peakRss.toFixed(0)} MiB; load average ${load}`;
console.log(machineLine());
console.log(
  `${seconds} s each, ${ME_CLIENTS} clients on GET /api/me; then ${LOGINS_IN_FLIGHT} login clients (${flood ? 'retrying 503s at once' : 'honouring Retry-After'}) beside them`,
);
console.log(`baseline:    ${describe(baseline)}`);
console.log(`with logins: ${describe(withLogins)}`);
console.log(`p99 with logins ÷ baseline p99: ${(at(withLogins.latencies, 0.99) / at(baseline.latencies, 0.99)).toFixed(2)}×`);
console.log(`logins: ${[...withLogins.outcomes].map(([status, count]) => `${count} × ${status}`).join(', ')}`);
