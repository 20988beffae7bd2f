/**
 * HTTP benchmark without the network: the same apps as http.bench.ts (bench/http/apps/), each one
 * a node:http request listener, served by a real node:http server whose connections are in-memory
 * streams (http/memory-socket.ts). Every request goes through node's parser, IncomingMessage and
 * ServerResponse and the framework; no system call is made, so this measures the JavaScript cost
 * per request, the part a framework adds, and moves far less with the machine's load than a
 * socket benchmark. A second pass counts the bytes each request allocates (`measureAllocation`). Each contender runs in a process of its own, as plain JavaScript (this file
 * bundled by http/compile.ts, so no loader shares the process; the profiler of debug mode turns
 * on promise hooks, which would slow every other contender of a shared process), warms up, has its
 * answers checked, then is measured. Rounds rotate the order; the cost of each contender is divided
 * by bare node:http's in the same round, and the median ratio is reported; for the Switchboard apps
 * with an added part (`Switchboard + …`), the median of the per-round differences to the plain app.
 *
 * Run: `cd bench && node --import tsx http-inprocess.bench.ts`
 * Env: BENCH_INPROC_REQUESTS (per round and case, default 40000), BENCH_INPROC_ROUNDS (default 7),
 * BENCH_INPROC_ONLY (comma list of name parts; bare node:http always runs, as the baseline).
 * BENCH_INPROC_PAIRED=<name part> (`request id`, `metrics`, `fastify`…) measures that contender against
 * the plain Switchboard app in one process, batches in turn: what a `Switchboard + …` part adds, or
 * how the plain app compares with a peer (the ratio); the figures to trust on a busy machine.
 * Profile one contender and case: `node --cpu-prof .compiled/http-inprocess.bench.mjs` with
 * BENCH_INPROC_CONTENDER (its full name) and BENCH_INPROC_CASE (hello or 404). With
 * BENCH_INPROC_SERVE=<count> too, that contender serves exactly that many requests of the case and
 * measures nothing (what http-instructions.bench.ts counts the instructions of).
 */
import './built-packages.js';
import { execFileSync } from 'node:child_process';
import http, { type RequestListener } from 'node:http';
import v8 from 'node:v8';
import { createListener as adapterOnly } from './http/apps/adapter-only.js';
import { createListener as express } from './http/apps/express.js';
import { createListener as fastify } from './http/apps/fastify.js';
import { createListener as hono } from './http/apps/hono.js';
import { createListener as koa } from './http/apps/koa.js';
import { createListener as bare } from './http/apps/node-http.js';
import { createListener as bareSameAnswer } from './http/apps/node-http-same-answer.js';
import { createListener as switchboard } from './http/apps/switchboard.js';
import { compileEntry } from './http/compile.js';
import { HELLO_BODY, HELLO_PATH, MISSING_PATH } from './http/contract.js';
import { MemorySocket } from './http/memory-socket.js';
import { machineLine, median, reportJson } from './report.js';

const requests = Number(process.env.BENCH_INPROC_REQUESTS ?? 40_000);
const rounds = Number(process.env.BENCH_INPROC_ROUNDS ?? 7);
const only = process.env.BENCH_INPROC_ONLY?.split(',').map((part) => part.trim().toLowerCase());
const CONNECTIONS = 10;

const FLOOR = "node:http writing Switchboard's answer (floor)";
const contenders: Array<[string, () => RequestListener | Promise<RequestListener>]> = [
  ['node:http (bare)', bare],
  [FLOOR, bareSameAnswer],
  ['node-adapter + trivial handler (no kernel)', adapterOnly],
  ['Switchboard, debug off', () => switchboard()],
  ['Switchboard, debug on', () => switchboard({ debug: true })],
  ['Switchboard + request id + access line', () => switchboard({ operations: 'request-id+access-log' })],
  ['Switchboard + pressure listener', () => switchboard({ operations: 'pressure' })],
  ['Switchboard + metrics', () => switchboard({ metrics: 'switchboard' })],
  ['Switchboard + metrics + OpenTelemetry metrics', () => switchboard({ metrics: 'switchboard+opentelemetry' })],
  ['Switchboard + the same metrics in prom-client', () => switchboard({ metrics: 'prom-client' })],
  ['Fastify', () => fastify()],
  ['Fastify + request id + logged lines (pino)', () => fastify({ logged: true })],
  ['Hono (@hono/node-server)', hono],
  ['Koa (koa-tree-router)', koa],
  ['Express', express],
];

/** A difference with its sign: `+1.20`, `-0.40`. */
const signed = (figure: string): string => (figure.startsWith('-') ? figure : `+${figure}`);

const requestFor = (path: string): Buffer =>
  Buffer.from(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nAccept: application/json\r\nUser-Agent: bench\r\n\r\n`);

/** The whole first answer to `path`, on a fresh server: its status, headers and body to check, and its length. */
async function firstAnswer(listener: RequestListener, path: string): Promise<string> {
  const server = http.createServer(listener);
  const socket = new MemorySocket({ keep: true });
  server.emit('connection', socket);
  socket.push(requestFor(path));
  const complete = (text: string): boolean => {
    const head = text.indexOf('\r\n\r\n');
    const length = /content-length: (\d+)/i.exec(text);
    return head >= 0 && length !== null && text.length >= head + 4 + Number(length[1]);
  };
  let text = '';
  for (let turn = 0; turn < 1000 && !complete(text); turn++) {
    await new Promise((resolve) => setImmediate(resolve));
    text = Buffer.concat(socket.kept!).toString('latin1');
  }
  socket.destroy();
  server.close();
  return text;
}

function check(name: string, answer: string, status: number, contentType: string, body: string | null): void {
  const [head = '', payload = ''] = answer.split('\r\n\r\n');
  const ok =
    head.startsWith(`HTTP/1.1 ${status} `) &&
    new RegExp(`^content-type: ${contentType}`, 'im').test(head) &&
    (body === null ? payload.includes(`"status":${status}`) : payload === body);
  if (!ok) throw new Error(`${name} answered ${JSON.stringify(answer)}`);
}

/** An answer's status line, header lines (names lower-cased, sorted, `date` left out) and body. */
function withoutDateAndOrder(answer: string): string {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  const [statusLine, ...fields] = head.split('\r\n');
  const lines = fields
    .map((field) => field.replace(/^[^:]+/, (name) => name.toLowerCase()))
    .filter((line) => !line.startsWith('date:'))
    .sort();
  return [statusLine, ...lines, '', body].join('\n');
}

/** The floor is a floor only while it writes what Switchboard writes, byte for byte but `Date` and order. */
async function checkFloor(): Promise<void> {
  const [floorListener, ourListener] = [bareSameAnswer(), switchboard()];
  for (const path of [HELLO_PATH, MISSING_PATH]) {
    const floor = withoutDateAndOrder(await firstAnswer(floorListener, path));
    const ours = withoutDateAndOrder(await firstAnswer(ourListener, path));
    if (floor !== ours) throw new Error(`${FLOOR} no longer writes Switchboard's answer:\n${floor}\n--- Switchboard:\n${ours}`);
  }
}

/** CPU µs per request over `count` requests spread on a few keep-alive connections. */
async function measure(listener: RequestListener, path: string, count: number, answerBytes: number): Promise<number> {
  const server = http.createServer(listener);
  const sockets = Array.from({ length: CONNECTIONS }, () => new MemorySocket());
  for (const socket of sockets) server.emit('connection', socket);
  const request = requestFor(path);
  const started = process.cpuUsage();
  await Promise.all(
    sockets.map(async (socket) => {
      for (let i = 0; i < count / CONNECTIONS; i++) await socket.exchange(request, answerBytes);
    }),
  );
  const used = process.cpuUsage(started);
  for (const socket of sockets) socket.destroy();
  server.close();
  return (used.user + used.system) / count;
}

/**
 * Bytes allocated on the JavaScript heap per request over `count` requests: the heap's growth
 * between collections, summed over the collections that ran (each one's size before it, less the
 * size the one before left). The harness's own allocations (the exchange's promise) are counted
 * for every contender alike; bare node:http's figure is the floor.
 */
async function measureAllocation(listener: RequestListener, path: string, count: number, answerBytes: number): Promise<number> {
  const profiler = new v8.GCProfiler();
  const before = v8.getHeapStatistics().used_heap_size;
  profiler.start();
  await measure(listener, path, count, answerBytes);
  const after = v8.getHeapStatistics().used_heap_size;
  let allocated = 0;
  let last = before;
  for (const gc of profiler.stop().statistics) {
    allocated += gc.beforeGC.heapStatistics.usedHeapSize - last;
    last = gc.afterGC.heapStatistics.usedHeapSize;
  }
  return (allocated + after - last) / count;
}

const cases = [
  { name: 'hello', path: HELLO_PATH, status: 200, contentType: 'application/json', body: JSON.stringify(HELLO_BODY) },
  { name: '404', path: MISSING_PATH, status: 404, contentType: 'application/problem\\+json', body: null },
] as const;

/** In a child process: checks one contender's answers, warms it up, prints its cost per case as JSON. */
async function measureOne(name: string): Promise<void> {
  const listener = await contenders.find(([contender]) => contender === name)![1]();
  const bytes: Record<string, number> = {};
  // BENCH_INPROC_CASE (hello or 404) measures one case alone: for a CPU profile of that case only.
  const measured = cases.filter((c) => process.env.BENCH_INPROC_CASE === undefined || c.name === process.env.BENCH_INPROC_CASE);
  for (const c of cases) {
    const answer = await firstAnswer(listener, c.path);
    check(name, answer, c.status, c.contentType, c.body);
    bytes[c.name] = Buffer.byteLength(answer, 'latin1');
  }
  // Both cases warm up before either is measured: each one's code paths settle in the JIT first.
  for (const c of measured) await measure(listener, c.path, requests / 2, bytes[c.name]!);
  const result: Record<string, number> = {};
  for (const c of measured) result[c.name] = await measure(listener, c.path, requests, bytes[c.name]!);
  for (const c of measured) result[`${c.name}Bytes`] = await measureAllocation(listener, c.path, requests, bytes[c.name]!);
  process.stdout.write(JSON.stringify(result));
}

/** Serves `count` requests of BENCH_INPROC_CASE, after checking the answer, and measures nothing. */
async function serveOnly(name: string, count: number): Promise<void> {
  const listener = await contenders.find(([contender]) => contender === name)![1]();
  const served = cases.find((c) => c.name === process.env.BENCH_INPROC_CASE);
  if (served === undefined) throw new Error('BENCH_INPROC_SERVE needs BENCH_INPROC_CASE (hello or 404)');
  const answer = await firstAnswer(listener, served.path);
  check(name, answer, served.status, served.contentType, served.body);
  await measure(listener, served.path, count, Buffer.byteLength(answer, 'latin1'));
}

/**
 * One added part's cost, paired: the plain Switchboard app and `name` in one process (so both see
 * the same load, moment by moment), batches of each in turn; the median of the per-pair
 * differences in µs per request, and in bytes per request.
 */
async function measurePaired(name: string): Promise<void> {
  const plainName = 'Switchboard, debug off';
  const pair = await Promise.all([plainName, name].map((each) => contenders.find(([contender]) => contender === each)![1]()));
  const batch = 2_000;
  const lines: string[] = [];
  for (const c of cases) {
    const answerBytes: number[] = [];
    for (const listener of pair) {
      const answer = await firstAnswer(listener, c.path);
      check(name, answer, c.status, c.contentType, c.body);
      answerBytes.push(Buffer.byteLength(answer, 'latin1'));
      await measure(listener, c.path, requests / 2, answerBytes.at(-1)!);
    }
    const differences: number[] = [];
    const ratios: number[] = [];
    for (let turn = 0; turn < requests / batch; turn++) {
      // Which one goes first alternates, so neither always follows the other's garbage.
      const first = turn % 2;
      const cost = [0, 0];
      cost[first] = await measure(pair[first]!, c.path, batch, answerBytes[first]!);
      cost[1 - first] = await measure(pair[1 - first]!, c.path, batch, answerBytes[1 - first]!);
      differences.push(cost[1]! - cost[0]!);
      ratios.push(cost[0]! / cost[1]!);
    }
    const bytes: number[] = [];
    for (const [i, listener] of pair.entries()) bytes.push(await measureAllocation(listener, c.path, requests / 2, answerBytes[i]!));
    lines.push(
      `${c.name} ${signed(median(differences).toFixed(2))} µs, ${signed(String(Math.round(bytes[1]! - bytes[0]!)))} bytes (the plain app's cost ${median(ratios).toFixed(2)}× of it)`,
    );
  }
  console.log(
    `${name}, paired with "${plainName}" in one process (${requests} requests per case in batches of ${batch}): ${lines.join('; ')}`,
  );
}

const pairedPart = process.env.BENCH_INPROC_PAIRED?.toLowerCase();
if (pairedPart !== undefined) {
  const found = contenders.find(([each]) => each !== 'Switchboard, debug off' && each.toLowerCase().includes(pairedPart));
  if (found === undefined) throw new Error(`BENCH_INPROC_PAIRED: no contender names ${pairedPart}`);
  const [name] = found;
  if (process.env.BENCH_INPROC_CONTENDER === name) await measurePaired(name);
  else {
    execFileSync(process.execPath, [await compileEntry('http-inprocess.bench.ts')], {
      cwd: new URL('.', import.meta.url),
      env: { ...process.env, BENCH_INPROC_CONTENDER: name, NODE_ENV: 'production' },
      stdio: 'inherit',
      timeout: 600_000,
    });
  }
  process.exit(0);
}

const child = process.env.BENCH_INPROC_CONTENDER;
if (child !== undefined) {
  const serve = process.env.BENCH_INPROC_SERVE;
  if (serve === undefined) await measureOne(child);
  else await serveOnly(child, Number(serve));
  process.exit(0);
}

const selected = contenders.filter(
  ([name], index) => index === 0 || only === undefined || only.some((part) => name.toLowerCase().includes(part)),
);
if (selected.some(([name]) => name === FLOOR)) await checkFloor();
const script = await compileEntry('http-inprocess.bench.ts');
const costs = new Map<string, number[]>();
const allocations = new Map<string, number[]>();
for (let round = 0; round < rounds; round++) {
  const order = selected.map((_, i) => selected[(i + round) % selected.length]!);
  for (const [name] of order) {
    const output = execFileSync(process.execPath, [script], {
      cwd: new URL('.', import.meta.url),
      env: { ...process.env, BENCH_INPROC_CONTENDER: name, NODE_ENV: 'production' },
      encoding: 'utf8',
      timeout: 300_000,
    });
    const measured = JSON.parse(output) as Record<string, number>;
    for (const c of cases) {
      costs.set(`${name} ${c.name}`, [...(costs.get(`${name} ${c.name}`) ?? []), measured[c.name]!]);
      allocations.set(`${name} ${c.name}`, [...(allocations.get(`${name} ${c.name}`) ?? []), measured[`${c.name}Bytes`]!]);
    }
  }
}

const rows = selected.map(([name]) => {
  const row: Record<string, number | string> = { name };
  for (const c of cases) {
    const own = costs.get(`${name} ${c.name}`)!;
    const base = costs.get(`node:http (bare) ${c.name}`)!;
    const fastify = costs.get(`Fastify ${c.name}`);
    row[`${c.name}Us`] = median(own);
    row[`${c.name}Bytes`] = median(allocations.get(`${name} ${c.name}`)!);
    row[`${c.name}Ratio`] = median(own.map((cost, round) => cost / base[round]!));
    // Cost relative to Fastify's in the same round, when Fastify ran.
    if (fastify !== undefined) row[`${c.name}VsFastify`] = median(own.map((cost, round) => cost / fastify[round]!));
  }
  return row;
});

const vsFastify = (row: Record<string, number | string>, name: string): string =>
  typeof row[`${name}VsFastify`] === 'number' ? ` ${(row[`${name}VsFastify`] as number).toFixed(2)}× |` : ' – |';

console.log('\n## HTTP in process: JavaScript cost per request (no sockets)');
console.log(machineLine());
console.log(
  `${requests} requests per case on ${CONNECTIONS} in-memory keep-alive connections after ${requests / 2} of each to warm up; each contender alone in its process; ${rounds} rounds, median\n`,
);
console.log(
  '| server | hello µs/req | hello cost vs node:http | hello vs Fastify | hello bytes/req | 404 µs/req | 404 cost vs node:http | 404 vs Fastify | 404 bytes/req |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
const bytes = (value: number | string | undefined): string => Math.round(value as number).toLocaleString('en');
for (const row of rows) {
  console.log(
    `| ${row.name} | ${(row.helloUs as number).toFixed(2)} | ${(row.helloRatio as number).toFixed(2)}× |${vsFastify(row, 'hello')} ${bytes(row.helloBytes)} | ` +
      `${(row['404Us'] as number).toFixed(2)} | ${(row['404Ratio'] as number).toFixed(2)}× |${vsFastify(row, '404')} ${bytes(row['404Bytes'])} |`,
  );
}
// What each added part costs: its median extra over the plain Switchboard app, round by round.
const plain = 'Switchboard, debug off';
for (const [name] of selected.filter(([name]) => name.startsWith('Switchboard + ') && costs.has(`${plain} hello`))) {
  const added = cases.map((c) => {
    const base = costs.get(`${plain} ${c.name}`)!;
    return `${c.name} ${signed(median(costs.get(`${name} ${c.name}`)!.map((cost, round) => cost - base[round]!)).toFixed(2))} µs`;
  });
  console.log(`- ${name}: ${added.join(', ')} over "${plain}" (median of the per-round differences)`);
}
reportJson('http-inprocess', rows);
