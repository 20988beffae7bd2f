/**
 * Load on the example host as it is deployed: production mode (`APP_DEBUG=0`), its own process,
 * the built packages. 200 keep-alive connections send a fixed mix of routes for 30 s (autocannon,
 * in this process); every response is checked (status and body shape) and a wrong one is counted
 * and shown. Reports req/s, latency p50/p99, wrong answers (must be 0), errors and the host's
 * peak RSS. Then the same load again with logins in flight, and SIGTERM: how long the host takes
 * to exit (its promise: 10 s at most), its exit code, and what the logins got.
 *
 * Run: `cd bench && node --import tsx host-load.bench.ts` (after `pnpm run build`), or
 * `npx -y pnpm@10.34.8 bench host-load`.
 * Env: BENCH_LOAD_SECONDS (default 30), BENCH_LOAD_CONNECTIONS (default 200).
 */
import './built-packages.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannonUntyped from 'autocannon';
import { apiCall, login } from './load/host-process.js';
import { machineLine, reportJson } from './report.js';

/** The part of autocannon's API used here: a request mix with a check of each response. */
interface LoadOptions {
  url: string;
  connections: number;
  duration: number;
  requests: MixEntry[];
}
interface LoadResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
}
const autocannon = autocannonUntyped as unknown as (options: LoadOptions) => PromiseLike<LoadResult> & { stop(): void };

interface MixEntry {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  onResponse: (status: number, body: string, context: unknown, headers: Record<string, string>) => void;
}

const seconds = Number(process.env.BENCH_LOAD_SECONDS ?? 30);
const connections = Number(process.env.BENCH_LOAD_CONNECTIONS ?? 200);
const hostDir = fileURLToPath(new URL('../examples/api-host/', import.meta.url));

interface RunningHost {
  child: ChildProcess;
  url: string;
  /** Log lines seen so far, by level. */
  levels: Map<string, number>;
  /** Log lines seen so far that contain `text`. */
  linesWith: (text: string) => string[];
  exited: Promise<number | null>;
  peakRssMiB: () => number;
}

/** `node --import tsx src/main.ts` in production mode; the packages resolve to their built `dist/`. */
async function startHost(): Promise<RunningHost> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: hostDir,
    // Login throttling off: the logins under load measure the password path, all from this one address.
    env: {
      ...process.env,
      APP_DEBUG: '0',
      ALLOW_DEMO_USERS: '1',
      PORT: '0',
      APP_HOST: '127.0.0.1',
      API_HOST_CONFIG: '',
      NODE_ENV: 'production',
      LOGIN_THROTTLING: 'off',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const levels = new Map<string, number>();
  const kept: string[] = [];
  let partial = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop()!;
    for (const line of lines) {
      const level = /^\[[^\]]+\] [\w.-]+\.([A-Z]+): /.exec(line)?.[1] ?? 'other';
      levels.set(level, (levels.get(level) ?? 0) + 1);
      if (/Matched route "api_token"|SIGTERM|[Ss]hutdown|in-flight|deadline/.test(line)) kept.push(line);
      if (level === 'CRITICAL' || level === 'other') console.error(`host: ${line}`);
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error('the host did not start within 120 s')), 120_000);
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      output += chunk;
      const match = /listening on (\S+)/.exec(output);
      if (match === null) return;
      clearTimeout(timer);
      resolve(match[1]!);
    });
    void exited.then((code) => reject(new Error(`the host exited with ${code} before listening`)));
  });
  let peakRss = 0;
  const sampler = setInterval(() => {
    try {
      const rss = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0);
      peakRss = Math.max(peakRss, rss);
    } catch {
      // The process is gone.
    }
  }, 500);
  void exited.then(() => clearInterval(sampler));
  return {
    child,
    url,
    levels,
    linesWith: (text) => kept.filter((line) => line.includes(text)),
    exited,
    peakRssMiB: () => Math.round(peakRss / 1024),
  };
}

/** Wrong answers, by route, with the first few samples. */
class Checker {
  wrong = 0;
  readonly samples: string[] = [];

  check(route: string, ok: boolean, status: number, body: string): void {
    if (ok) return;
    this.wrong++;
    if (this.samples.length < 5) this.samples.push(`${route}: ${status} ${body.slice(0, 120)}`);
  }
}

function parse(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

const isItem = (value: unknown): boolean => {
  const item = value as { id?: unknown; name?: unknown; quantity?: unknown } | null;
  return typeof item?.id === 'number' && typeof item.name === 'string' && typeof item.quantity === 'number';
};

/** The mix every connection cycles through: reads, an authenticated read, and the usual client errors. */
function routeMix(checker: Checker, userToken: string, itemId: number): MixEntry[] {
  const json = { accept: 'application/json' };
  return [
    {
      method: 'GET',
      path: '/health',
      headers: json,
      onResponse: (s, b) => checker.check('health', s === 200 && b === '{"status":"ok"}', s, b),
    },
    {
      method: 'GET',
      path: '/api/items',
      headers: json,
      onResponse: (s, b) => {
        const list = parse(b);
        checker.check('items list', s === 200 && Array.isArray(list) && list.length > 0 && list.every(isItem), s, b);
      },
    },
    {
      method: 'GET',
      path: `/api/items/${itemId}`,
      headers: json,
      onResponse: (s, b) => checker.check('item', s === 200 && isItem(parse(b)) && (parse(b) as { id: number }).id === itemId, s, b),
    },
    {
      method: 'GET',
      path: '/api/me',
      headers: { ...json, authorization: `Bearer ${userToken}` },
      onResponse: (s, b) => {
        const me = parse(b) as { username?: unknown; roles?: unknown } | undefined;
        checker.check('me', s === 200 && me?.username === 'demo' && Array.isArray(me.roles) && me.roles.includes('ROLE_USER'), s, b);
      },
    },
    {
      method: 'POST',
      path: '/api/items',
      headers: { ...json, 'content-type': 'application/json' },
      body: '{"name":"anonymous","quantity":1}',
      onResponse: (s, b) => checker.check('create without token', s === 401 && b === '{"code":401,"message":"JWT Token not found"}', s, b),
    },
    {
      method: 'GET',
      path: '/no-such-page',
      headers: json,
      onResponse: (s, b) => checker.check('404', s === 404 && (parse(b) as { status?: unknown } | undefined)?.status === 404, s, b),
    },
    {
      method: 'POST',
      path: '/health',
      headers: json,
      onResponse: (s, b, _c, h) => checker.check('405', s === 405 && h['allow'] === 'GET', s, b),
    },
    {
      method: 'GET',
      path: '/health/',
      headers: json,
      onResponse: (s, b, _c, h) => checker.check('301', s === 301 && h['location']?.endsWith('/health') === true, s, b),
    },
  ];
}

async function measureLoad(host: RunningHost, userToken: string, itemId: number): Promise<Record<string, number>> {
  // Warm-up, not counted: the JIT and the database's first queries.
  await autocannon({ url: host.url, connections: 50, duration: 3, requests: routeMix(new Checker(), userToken, itemId) });
  const checker = new Checker();
  const result = await autocannon({ url: host.url, connections, duration: seconds, requests: routeMix(checker, userToken, itemId) });
  for (const sample of checker.samples) console.log(`wrong: ${sample}`);
  return {
    requestsPerSecond: Math.round(result.requests.average),
    total: result.requests.total,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    wrong: checker.wrong,
    errors: result.errors,
    timeouts: result.timeouts,
    peakRssMiB: host.peakRssMiB(),
  };
}

/** The same load plus 16 logins in flight, then SIGTERM: time to exit, exit code, what the logins got. */
async function measureShutdownUnderLoad(host: RunningHost, userToken: string, itemId: number): Promise<Record<string, number>> {
  const load = autocannon({ url: host.url, connections, duration: 20, requests: routeMix(new Checker(), userToken, itemId) });
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const logins = Array.from({ length: 16 }, () =>
    apiCall(`${host.url}/api/token`, 'POST', { username: 'demo', password: 'demo-password' }).then(
      ({ status }) => String(status),
      () => 'cut',
    ),
  );
  // The logins are in the host's hands (routed) before the signal.
  const routed = host.linesWith('Matched route "api_token"').length;
  while (host.linesWith('Matched route "api_token"').length < routed + logins.length)
    await new Promise((resolve) => setTimeout(resolve, 20));
  const signalled = performance.now();
  host.child.kill('SIGTERM');
  // Once the host stops listening, the load only reconnects in vain and slows this process's own
  // clock reading; it is stopped when the host says its shutdown is done.
  while (host.linesWith('Shutdown finished').length === 0 && host.child.exitCode === null)
    await new Promise((resolve) => setTimeout(resolve, 20));
  load.stop();
  const code = await host.exited;
  const exitMs = Math.round(performance.now() - signalled);
  const outcomes = await Promise.all(logins);
  await load;
  for (const line of host.linesWith('')) if (!line.includes('Matched route')) console.log(`host: ${line}`);
  const reported = /Shutdown finished in (\d+) ms/.exec(host.linesWith('Shutdown finished').join('\n'))?.[1];
  return {
    exitMs,
    shutdownMsReportedByHost: Number(reported ?? -1),
    exitCode: code ?? -1,
    loginsAnswered200: outcomes.filter((o) => o === '200').length,
    loginsAnswered503: outcomes.filter((o) => o === '503').length,
    loginsCut: outcomes.filter((o) => o === 'cut').length,
  };
}

const host = await startHost();
try {
  const adminToken = await login(host.url, 'admin');
  const userToken = await login(host.url, 'demo');
  const created = await apiCall(`${host.url}/api/items`, 'POST', { name: 'bench item', quantity: 3 }, adminToken);
  if (created.status !== 201) throw new Error(`creating the bench item answered ${created.status}`);
  const itemId = (created.json as { id: number }).id;

  console.log(
    `\n## Example host under load (production mode, ${connections} keep-alive connections × ${seconds} s, mixed routes)\n${machineLine()}\n`,
  );
  const load = await measureLoad(host, userToken, itemId);
  console.log('| req/s | requests | p50 | p99 | wrong | errors | timeouts | host peak RSS |\n|---:|---:|---:|---:|---:|---:|---:|---:|');
  console.log(
    `| ${load.requestsPerSecond!.toLocaleString('en-US')} | ${load.total!.toLocaleString('en-US')} | ${load.latencyP50Ms} ms | ${load.latencyP99Ms} ms | ${load.wrong} | ${load.errors} | ${load.timeouts} | ${load.peakRssMiB} MiB |`,
  );
  const levels = Object.fromEntries(host.levels);
  console.log(`Host log lines by level: ${JSON.stringify(levels)}`);

  const shutdown = await measureShutdownUnderLoad(host, userToken, itemId);
  console.log(
    `\nSIGTERM under the same load with 16 logins in flight: the host reports its shutdown done in ${shutdown.shutdownMsReportedByHost} ms; ` +
      `exit seen here after ${shutdown.exitMs} ms with code ${shutdown.exitCode}; logins: ${shutdown.loginsAnswered200} × 200, ${shutdown.loginsAnswered503} × 503, ${shutdown.loginsCut} cut`,
  );
  reportJson('host-load', { load, levels, shutdown });
  if (load.wrong! > 0 || (levels['CRITICAL'] ?? 0) > 0 || shutdown.exitCode !== 0) process.exitCode = 1;
} finally {
  host.child.kill('SIGKILL');
}
