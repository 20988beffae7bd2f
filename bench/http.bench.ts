/**
 * HTTP benchmark: requests per second of the same JSON hello route and the same 404, served by
 * bare node:http, node:http writing Switchboard's answer by hand (the floor under Switchboard),
 * Switchboard (debug off and on), Fastify, Hono on @hono/node-server, Koa and Express. Each server
 * runs in its own child process on 127.0.0.1, as plain JavaScript (bundled
 * by http/compile.ts: no loader in the server process), pinned to the second core while autocannon
 * (in this process) has the first, so load generator and server never take each other's time.
 * Every server is started once, checked to answer correctly and warmed up; then each round loads
 * each server in turn (rotated order) for a few seconds per case. Idle servers use no CPU, and short
 * turns taken many times spread the shared machine's slow stretches over everyone: each
 * contender's ratio to bare node:http and to Fastify is taken per round, and the median reported.
 *
 * Run: `cd bench && node --import tsx http.bench.ts`
 * Env: BENCH_HTTP_SECONDS (per measurement, default 4), BENCH_HTTP_WARMUP (per server and case,
 * once, default 2), BENCH_HTTP_CONNECTIONS (default 50), BENCH_HTTP_ROUNDS (default 4),
 * BENCH_HTTP_ONLY (comma list).
 */
import './built-packages.js';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { compileEntry } from './http/compile.js';
import { HELLO_BODY, HELLO_PATH, MISSING_PATH } from './http/contract.js';
import { machineLine, median, reportJson } from './report.js';

interface Contender {
  name: string;
  file: string;
  args?: string[];
}

const CONTENDERS: Contender[] = [
  { name: 'node:http (bare)', file: 'node-http.ts' },
  { name: "node:http writing Switchboard's answer (floor)", file: 'node-http-same-answer.ts' },
  { name: 'node-adapter + trivial handler (no kernel)', file: 'adapter-only.ts' },
  { name: 'Switchboard, debug off', file: 'switchboard.ts' },
  { name: 'Switchboard, debug on', file: 'switchboard.ts', args: ['--debug'] },
  { name: 'Fastify', file: 'fastify.ts' },
  { name: 'Hono (@hono/node-server)', file: 'hono.ts' },
  { name: 'Koa (koa-tree-router)', file: 'koa.ts' },
  { name: 'Express', file: 'express.ts' },
];

const seconds = Number(process.env.BENCH_HTTP_SECONDS ?? 4);
const warmup = Number(process.env.BENCH_HTTP_WARMUP ?? 2);
const connections = Number(process.env.BENCH_HTTP_CONNECTIONS ?? 50);
const rounds = Number(process.env.BENCH_HTTP_ROUNDS ?? 4);
const only = process.env.BENCH_HTTP_ONLY?.split(',').map((s) => s.trim().toLowerCase());
const HEADERS = { accept: 'application/json' };
const here = fileURLToPath(new URL('.', import.meta.url));

const compiled = new Map<string, string>();

/**
 * Servers on the second core, this process (autocannon) on the first, when the machine has two
 * cores and `taskset`; otherwise unpinned, and the report says so.
 */
const pinned = availableParallelism() >= 2 && pinSelfToFirstCore();
const SERVER_COMMAND_PREFIX = pinned ? ['taskset', '-c', '1'] : [];

function pinSelfToFirstCore(): boolean {
  try {
    execFileSync('taskset', ['-a', '-cp', '0', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

async function start(contender: Contender): Promise<{ child: ChildProcess; url: string }> {
  let file = compiled.get(contender.file);
  if (file === undefined) compiled.set(contender.file, (file = await compileEntry(`http/servers/${contender.file}`)));
  // taskset runs node in its own place: the child's pid is the server's.
  const [command, ...args] = [...SERVER_COMMAND_PREFIX, process.execPath, file, ...(contender.args ?? [])];
  const child = spawn(command!, args, {
    cwd: here,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const port = await new Promise<number>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`${contender.name} did not start within 30 s`)), 30_000);
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      output += chunk;
      const match = /listening (\d+)/.exec(output);
      if (match !== null) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once('exit', (code) => reject(new Error(`${contender.name} exited (${code}) before listening`)));
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/** A benchmark of a wrong answer is worthless: every server must give these answers first. */
async function check(name: string, url: string): Promise<void> {
  const hello = await fetch(`${url}${HELLO_PATH}`, { headers: HEADERS });
  const helloBody = await hello.text();
  if (
    hello.status !== 200 ||
    !hello.headers.get('content-type')?.startsWith('application/json') ||
    helloBody !== JSON.stringify(HELLO_BODY)
  ) {
    throw new Error(`${name}: GET ${HELLO_PATH} gave ${hello.status} ${hello.headers.get('content-type')} ${helloBody}`);
  }
  const missing = await fetch(`${url}${MISSING_PATH}`, { headers: HEADERS });
  const missingBody = await missing.text();
  if (
    missing.status !== 404 ||
    !missing.headers.get('content-type')?.startsWith('application/problem+json') ||
    !missingBody.includes('"status":404')
  ) {
    throw new Error(`${name}: GET ${MISSING_PATH} gave ${missing.status} ${missing.headers.get('content-type')} ${missingBody}`);
  }
}

/**
 * CPU time (user + system) the server process has used so far, in µs, from /proc (Linux). On a
 * shared machine requests per second also measure the neighbours; CPU per request much less so.
 */
function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime are fields 14 and 15 of the stat line, i.e. 11 and 12 after "pid (comm) ".
  return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / CLOCK_TICKS;
}
const CLOCK_TICKS = 100;

async function measure(url: string, expectStatus: number, pid: number): Promise<{ rps: number; p99: number; cpuPerRequest: number }> {
  const cpuBefore = cpuMicros(pid);
  const result = await autocannon({ url, connections, duration: seconds, headers: HEADERS });
  const cpu = cpuMicros(pid) - cpuBefore;
  const wrong = expectStatus === 200 ? result.non2xx : result['2xx'];
  if (result.errors > 0 || result.timeouts > 0 || wrong > 0) {
    throw new Error(`${url}: ${result.errors} errors, ${result.timeouts} timeouts, ${wrong} unexpected statuses`);
  }
  const served = expectStatus === 200 ? result['2xx'] : result['4xx'];
  return { rps: result.requests.average, p99: result.latency.p99, cpuPerRequest: cpu / served };
}

const selected = CONTENDERS.filter((c) => only === undefined || only.some((o) => c.name.toLowerCase().includes(o)));
interface Samples {
  hello: number[];
  missing: number[];
  p99: number[];
  helloCpu: number[];
  missingCpu: number[];
}
const samples = new Map<string, Samples>();
for (const contender of selected) samples.set(contender.name, { hello: [], missing: [], p99: [], helloCpu: [], missingCpu: [] });

const servers = new Map<string, { child: ChildProcess; url: string }>();
try {
  for (const contender of selected) {
    const server = await start(contender);
    servers.set(contender.name, server);
    await check(contender.name, server.url);
    for (const path of [HELLO_PATH, MISSING_PATH]) {
      await autocannon({ url: `${server.url}${path}`, connections, duration: warmup, headers: HEADERS });
    }
  }
  for (let round = 0; round < rounds; round++) {
    // Rotate the order each round so a slower stretch of the shared machine does not hit one contender.
    const order = selected.map((_, i) => selected[(i + round) % selected.length]!);
    for (const contender of order) {
      const { child, url } = servers.get(contender.name)!;
      const hello = await measure(`${url}${HELLO_PATH}`, 200, child.pid!);
      const missing = await measure(`${url}${MISSING_PATH}`, 404, child.pid!);
      const sample = samples.get(contender.name)!;
      sample.hello.push(hello.rps);
      sample.missing.push(missing.rps);
      sample.p99.push(hello.p99);
      sample.helloCpu.push(hello.cpuPerRequest);
      sample.missingCpu.push(missing.cpuPerRequest);
      console.error(
        `round ${round + 1}: ${contender.name}: hello ${Math.round(hello.rps)} rps (${hello.cpuPerRequest.toFixed(1)} µs CPU/req), ` +
          `404 ${Math.round(missing.rps)} rps (${missing.cpuPerRequest.toFixed(1)} µs CPU/req)`,
      );
    }
  }
} finally {
  await Promise.all([...servers.values()].map(({ child }) => stop(child)));
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
/** The median over rounds of `sample[i] / reference[i]`: each round's contenders met the same machine. */
const medianRatio = (sample: number[], reference: number[] | undefined) =>
  reference === undefined ? NaN : median(sample.map((value, i) => value / reference[i]!));
const bare = samples.get(CONTENDERS[0]!.name);
const fastify = samples.get('Fastify');
const rows = selected.map((contender) => {
  const sample = samples.get(contender.name)!;
  return {
    name: contender.name,
    helloRps: mean(sample.hello),
    helloRatio: medianRatio(sample.hello, bare?.hello),
    helloVsFastify: medianRatio(sample.hello, fastify?.hello),
    missingRps: mean(sample.missing),
    missingRatio: medianRatio(sample.missing, bare?.missing),
    missingVsFastify: medianRatio(sample.missing, fastify?.missing),
    helloP99Ms: mean(sample.p99),
    helloCpuUs: mean(sample.helloCpu),
    missingCpuUs: mean(sample.missingCpu),
  };
});

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const times = (ratio: number) => (Number.isNaN(ratio) ? '—' : `${ratio.toFixed(2)}×`);
console.log(`\n## HTTP: JSON hello route and 404, requests per second`);
console.log(`${machineLine()}`);
console.log(
  `autocannon: ${connections} connections, ${warmup} s warm-up per server and case, then ${rounds} round(s) of ${seconds} s per case; ` +
    `${pinned ? 'servers on core 1, autocannon on core 0' : 'not pinned to cores'}; Accept: application/json. ` +
    'rps and CPU: mean of rounds; ratios: median of the per-round ratios\n',
);
console.log(
  '| server | GET /hello rps | vs node:http | vs Fastify | server CPU µs/req | GET 404 rps | vs node:http | vs Fastify | server CPU µs/req | hello p99 ms |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const row of rows) {
  console.log(
    `| ${row.name} | ${fmt(row.helloRps)} | ${times(row.helloRatio)} | ${times(row.helloVsFastify)} | ${row.helloCpuUs.toFixed(1)} ` +
      `| ${fmt(row.missingRps)} | ${times(row.missingRatio)} | ${times(row.missingVsFastify)} | ${row.missingCpuUs.toFixed(1)} | ${row.helloP99Ms.toFixed(1)} |`,
  );
}
reportJson('http', rows);
