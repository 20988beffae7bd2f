/**
 * HTTP benchmark: requests per second of the same JSON hello route and the same 404, served by
 * bare node:http, Switchboard (debug off and on), Fastify, Hono on @hono/node-server, Koa and
 * Express. Each server runs alone in its own child process on 127.0.0.1, as plain JavaScript
 * (bundled by http/compile.ts: no loader in the server process); autocannon (in this
 * process) loads it for a bounded time after a warm-up; each server is first checked to answer
 * correctly. Rounds rotate the order so drift on a shared machine spreads over everyone.
 *
 * Run: `cd bench && node --import tsx http.bench.ts`
 * Env: BENCH_HTTP_SECONDS (per measurement, default 8), BENCH_HTTP_WARMUP (default 2),
 * BENCH_HTTP_CONNECTIONS (default 50), BENCH_HTTP_ROUNDS (default 2), BENCH_HTTP_ONLY (comma list).
 */
import './built-packages.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { compileEntry } from './http/compile.js';
import { HELLO_BODY, HELLO_PATH, MISSING_PATH } from './http/contract.js';
import { machineLine, reportJson } from './report.js';

interface Contender {
  name: string;
  file: string;
  args?: string[];
}

const CONTENDERS: Contender[] = [
  { name: 'node:http (bare)', file: 'node-http.ts' },
  { name: 'node-adapter + trivial handler (no kernel)', file: 'adapter-only.ts' },
  { name: 'Switchboard, debug off', file: 'switchboard.ts' },
  { name: 'Switchboard, debug on', file: 'switchboard.ts', args: ['--debug'] },
  { name: 'Fastify', file: 'fastify.ts' },
  { name: 'Hono (@hono/node-server)', file: 'hono.ts' },
  { name: 'Koa (koa-tree-router)', file: 'koa.ts' },
  { name: 'Express', file: 'express.ts' },
];

const seconds = Number(process.env.BENCH_HTTP_SECONDS ?? 8);
const warmup = Number(process.env.BENCH_HTTP_WARMUP ?? 2);
const connections = Number(process.env.BENCH_HTTP_CONNECTIONS ?? 50);
const rounds = Number(process.env.BENCH_HTTP_ROUNDS ?? 2);
const only = process.env.BENCH_HTTP_ONLY?.split(',').map((s) => s.trim().toLowerCase());
const HEADERS = { accept: 'application/json' };
const here = fileURLToPath(new URL('.', import.meta.url));

const compiled = new Map<string, string>();

async function start(contender: Contender): Promise<{ child: ChildProcess; url: string }> {
  let file = compiled.get(contender.file);
  if (file === undefined) compiled.set(contender.file, (file = await compileEntry(`http/servers/${contender.file}`)));
  const child = spawn(process.execPath, [file, ...(contender.args ?? [])], {
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
  await autocannon({ url, connections, duration: warmup, headers: HEADERS });
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

for (let round = 0; round < rounds; round++) {
  // Rotate the order each round so a slower stretch of the shared machine does not hit one contender.
  const order = selected.map((_, i) => selected[(i + round) % selected.length]!);
  for (const contender of order) {
    const { child, url } = await start(contender);
    try {
      await check(contender.name, url);
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
    } finally {
      await stop(child);
    }
  }
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const baseline = samples.get(CONTENDERS[0]!.name);
const rows = selected.map((contender) => {
  const sample = samples.get(contender.name)!;
  const hello = mean(sample.hello);
  const missing = mean(sample.missing);
  return {
    name: contender.name,
    helloRps: hello,
    helloRatio: baseline === undefined ? NaN : hello / mean(baseline.hello),
    missingRps: missing,
    missingRatio: baseline === undefined ? NaN : missing / mean(baseline.missing),
    helloP99Ms: mean(sample.p99),
    helloCpuUs: mean(sample.helloCpu),
    helloCpuRatio: baseline === undefined ? NaN : mean(baseline.helloCpu) / mean(sample.helloCpu),
    missingCpuUs: mean(sample.missingCpu),
    missingCpuRatio: baseline === undefined ? NaN : mean(baseline.missingCpu) / mean(sample.missingCpu),
  };
});

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
console.log(`\n## HTTP: JSON hello route and 404, requests per second`);
console.log(`${machineLine()}`);
console.log(
  `autocannon: ${connections} connections, ${warmup} s warm-up + ${seconds} s measured per case, ${rounds} round(s) (mean), Accept: application/json\n`,
);
const pct = (ratio: number) => `${(ratio * 100).toFixed(1)}%`;
console.log(
  '| server | GET /hello rps | vs node:http | server CPU µs/req | req per CPU-s vs node:http | GET 404 rps | vs node:http | server CPU µs/req | req per CPU-s vs node:http | hello p99 ms |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const row of rows) {
  console.log(
    `| ${row.name} | ${fmt(row.helloRps)} | ${pct(row.helloRatio)} | ${row.helloCpuUs.toFixed(1)} | ${pct(row.helloCpuRatio)} ` +
      `| ${fmt(row.missingRps)} | ${pct(row.missingRatio)} | ${row.missingCpuUs.toFixed(1)} | ${pct(row.missingCpuRatio)} | ${row.helloP99Ms.toFixed(1)} |`,
  );
}
reportJson('http', rows);
