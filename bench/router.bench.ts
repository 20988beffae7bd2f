/**
 * Router benchmark: lookups per second over the GitHub API route table (203 routes, the Go router
 * benchmark's table) for static hits, dynamic hits and misses — Switchboard against find-my-way,
 * Hono's RegExpRouter and TrieRouter, koa-tree-router, memoirist and a plain path-to-regexp loop,
 * in the same run, each first checked to resolve every request correctly. Wrong-method (405 with
 * its Allow list) and trailing-slash toggles (redirect) are Switchboard-only work no peer does;
 * they are reported against Switchboard's own hit figures.
 *
 * Each workload is measured twice. *Reused strings*: the same path strings every lookup, so a
 * router's first `Map.get` finds the string's hash already cached. *Fresh strings*: what a server
 * sees, a new path string per lookup, sliced from a request URL (`/path?page=2`); the cost of the
 * slice alone (measured in the same rounds) is subtracted from every contender's time.
 * Run: `cd bench && node --import tsx router.bench.ts`
 * Timing is process CPU time (the machine is shared), best of `BENCH_ROUNDS` rotated rounds of
 * `BENCH_TIME_MS` each (`BENCH_TIME_MS=100 BENCH_ROUNDS=1` for a quick run).
 */
import './built-packages.js';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { machineLine, reportJson } from './report.js';
import { PEERS, switchboard, type Contender, type RouteRow, type RouterPackage } from './router/peers.js';

const BEFORE = 'switchboard before';

const DATA = new URL('./data/', import.meta.url);
const rows = JSON.parse(readFileSync(new URL('github-api-routes.json', DATA), 'utf8')) as RouteRow[];

interface Lookup {
  method: string;
  path: string;
  /** Row id expected, or `null` for a miss. */
  expected: number | null;
  params: Record<string, string>;
}

/** A concrete path for a pattern: each `:name` gets a value no static segment of the table uses. */
function concrete(pattern: string): { path: string; params: Record<string, string> } {
  const params: Record<string, string> = {};
  const path = pattern.replace(/:(\w+)/g, (_, name: string) => (params[name] = `${name}Q7`));
  return { path, params };
}

const isStatic = (row: RouteRow) => !row.path.includes(':');
const staticHits: Lookup[] = rows.flatMap((row, id) =>
  isStatic(row) ? [{ method: row.method, path: row.path, expected: id, params: {} }] : [],
);
const dynamicHits: Lookup[] = rows.flatMap((row, id) =>
  isStatic(row) ? [] : [{ method: row.method, expected: id, ...concrete(row.path) }],
);
/** What scanners ask a public API for all day. */
const misses: Lookup[] = [
  '/robots.txt',
  '/.env',
  '/wp-login.php',
  '/favicon.ico',
  '/.git/config',
  '/sitemap.xml',
  '/xmlrpc.php',
  '/admin/config.php',
  '/phpmyadmin/index.php',
  '/api/v1/users',
  '/repos/a/b/c/d/e/f/g',
  '/users/someone/repos/extra',
].map((path) => ({ method: 'GET', path, expected: null, params: {} }));
/** Paths that exist, with a method no route of theirs allows (the table has no PATCH). */
const wrongMethod = [...staticHits, ...dynamicHits].map((lookup) => ({ ...lookup, method: 'PATCH' }));
/** GET paths that exist, with the trailing slash toggled. */
const slashToggled = [...staticHits, ...dynamicHits].filter((l) => l.method === 'GET').map((l) => ({ ...l, path: `${l.path}/` }));

const ours = switchboard(rows);
/**
 * `ROUTER_BENCH_BEFORE=<dir>`: also measure another build of the router package (its `index.js`
 * in `<dir>`, e.g. the previous commit's `tsc` output) as "switchboard before", in the same run.
 */
const beforeDir = process.env.ROUTER_BENCH_BEFORE;
const before =
  beforeDir === undefined ? [] : [switchboard(rows, (await import(pathToFileURL(`${beforeDir}/index.js`).href)) as RouterPackage, BEFORE)];
/** `ROUTER_BENCH_ONLY=switchboard,find-my-way` limits the contenders (for a quick comparison). */
const onlyNames = process.env.ROUTER_BENCH_ONLY?.split(',');
const contenders: Contender[] = [ours, ...before, ...PEERS.map((make) => make(rows))].filter(
  (c) => onlyNames === undefined || onlyNames.includes(c.name),
);

/**
 * A path as a server hands it to a router: sliced from the request target, never a string built
 * by concatenation. The correctness check below runs every contender on such strings, as the
 * timed lookups do: fed concatenated strings (`${path}/`) before timing, the switchboard matcher
 * measured 25 against 15 ns on static hits and 78 against 51 ns on misses in the same build
 * (docs/benchmarks.md), a state no request through a server adapter puts it in.
 */
const asServed = (path: string) => `${path}?page=2`.slice(0, path.length);

// Correctness first: a benchmark of a wrong answer is worthless.
const failures: string[] = [];
for (const contender of contenders) {
  for (const lookup of [...staticHits, ...dynamicHits, ...misses]) {
    const found = contender.find(lookup.method, asServed(lookup.path));
    const ok =
      lookup.expected === null ? found === null : found !== null && found.id === lookup.expected && sameParams(found.params, lookup.params);
    if (!ok) failures.push(`${contender.name}: ${lookup.method} ${lookup.path} → ${JSON.stringify(found)}, expected ${lookup.expected}`);
  }
}
// Every build of ours measured gets the same checks, so that none runs with less JIT history.
for (const { name, router } of [ours, ...before]) {
  for (const lookup of wrongMethod) {
    const result = router.matchPath(asServed(lookup.path), { method: lookup.method, host: 'localhost', scheme: 'http' });
    if (result.kind !== 'method-not-allowed' || result.allowedMethods.length === 0)
      failures.push(`${name} 405: ${lookup.path} → ${result.kind}`);
  }
  for (const lookup of slashToggled) {
    const result = router.matchPath(asServed(lookup.path), { method: 'GET', host: 'localhost', scheme: 'http' });
    if (result.kind !== 'redirect' || result.path !== lookup.path.slice(0, -1))
      failures.push(`${name} slash: ${lookup.path} → ${result.kind}`);
  }
}
if (failures.length > 0) {
  console.error(failures.slice(0, 20).join('\n'));
  throw new Error(`${failures.length} wrong answers; not benchmarking`);
}

function sameParams(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(b);
  return Object.keys(a).length === keys.length && keys.every((key) => a[key] === b[key]);
}

/** CPU milliseconds per contender per round. */
const TIME = Number(process.env.BENCH_TIME_MS ?? 300);

interface Row {
  workload: string;
  strings: Strings;
  contender: string;
  /** Fresh strings: with the slice's cost subtracted. */
  opsPerSecond: number;
  /** Fresh strings: what the slice alone cost per lookup (ns). */
  sliceNs: number;
}

/** Rounds per workload; each contender keeps its best round, and the order rotates between rounds. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

/** CPU time of this process in ms: on a shared machine, wall time counts the time others ran too. */
function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

type Strings = 'reused' | 'fresh';

/**
 * The fresh-string baseline: creates the path string as the others do and keeps it (in a small
 * ring, so the slice cannot be optimised away), nothing else.
 */
function sliceOnly(): Contender {
  const ring: string[] = new Array<string>(1024).fill('');
  let next = 0;
  return {
    name: SLICE_ONLY,
    lookup: (_method, path) => (ring[next++ & 1023] = path),
    find: () => null,
  };
}
const SLICE_ONLY = 'slice only';

async function measure(workload: string, lookups: readonly Lookup[], contenders: readonly Contender[], strings: Strings): Promise<Row[]> {
  const who = strings === 'fresh' ? [...contenders, sliceOnly()] : contenders;
  const methods = lookups.map((l) => l.method);
  const paths = lookups.map((l) => l.path);
  // A request target per lookup; `ends[i]` is where its path stops.
  const urls = lookups.map((l) => `${l.path}?page=2`);
  const ends = lookups.map((l) => l.path.length);
  const n = lookups.length;
  const passes = Math.max(1, Math.ceil(2000 / n));
  const best = new Map<string, number>();
  let sink = 0;
  const batch =
    strings === 'reused'
      ? (contender: Contender) => {
          for (let p = 0; p < passes; p++) for (let i = 0; i < n; i++) if (contender.lookup(methods[i]!, paths[i]!) !== undefined) sink++;
        }
      : (contender: Contender) => {
          for (let p = 0; p < passes; p++) {
            for (let i = 0; i < n; i++) if (contender.lookup(methods[i]!, urls[i]!.slice(0, ends[i])) !== undefined) sink++;
          }
        };
  for (const contender of who) for (let w = 0; w < 200; w++) batch(contender); // warm-up: let the JIT settle
  for (let round = 0; round < ROUNDS; round++) {
    const order = [...who.slice(round % who.length), ...who.slice(0, round % who.length)];
    for (const contender of order) {
      let batches = 0;
      const start = cpuMs();
      let spent = 0;
      while (spent < TIME) {
        batch(contender);
        batches++;
        spent = cpuMs() - start;
      }
      const ops = (batches * passes * n * 1000) / spent;
      if (!(ops <= (best.get(contender.name) ?? 0))) best.set(contender.name, ops);
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (sink < 0) console.log(sink);
  // Fresh strings: subtract the time the slice alone takes (ns per lookup) from each contender's.
  const sliceNs = strings === 'fresh' ? 1e9 / best.get(SLICE_ONLY)! : 0;
  return contenders.map((contender) => ({
    workload,
    strings,
    contender: contender.name,
    opsPerSecond: 1e9 / (1e9 / best.get(contender.name)! - sliceNs),
    sliceNs,
  }));
}

/** Mixed traffic: static hits, dynamic hits and misses interleaved, as a public API sees them. */
const mixed: Lookup[] = [];
for (let i = 0; i < dynamicHits.length; i++) {
  mixed.push(dynamicHits[i]!, misses[i % misses.length]!);
  if (i % 4 === 0) mixed.push(staticHits[(i / 4) % staticHits.length]!);
}

const workloads: Array<[string, readonly Lookup[], 'all' | 'ours']> = [
  [`static hits (${staticHits.length} paths)`, staticHits, 'all'],
  [`dynamic hits (${dynamicHits.length} paths)`, dynamicHits, 'all'],
  [`misses, 404 (${misses.length} scanner paths)`, misses, 'all'],
  [`mixed: static, dynamic, misses interleaved (${mixed.length})`, mixed, 'all'],
  [`wrong method, 405 + Allow (${wrongMethod.length} paths)`, wrongMethod, 'ours'],
  [`slash toggled, 301 target (${slashToggled.length} paths)`, slashToggled, 'ours'],
];

/**
 * Each workload runs in a fresh process (this file again, with ROUTER_BENCH_WORKLOAD set), so
 * the JIT state one workload leaves behind does not bend the next one's figures; the mixed
 * workload is there to show the state a real server is in.
 */
const only = process.env.ROUTER_BENCH_WORKLOAD;
if (only !== undefined) {
  const [index, strings] = only.split(':') as [string, Strings];
  const [name, lookups, who] = workloads[Number(index)]!;
  const rows = await measure(
    name,
    lookups,
    who === 'all' ? contenders : contenders.filter((c) => c.name.startsWith('switchboard')),
    strings,
  );
  process.stdout.write(`${JSON.stringify(rows)}\n`);
  process.exit(0);
}
/** `ROUTER_BENCH_STRINGS=fresh` measures one way only. */
const stringModes = (process.env.ROUTER_BENCH_STRINGS?.split(',') ?? ['reused', 'fresh']) as Strings[];
const results: Row[] = [];
for (const strings of stringModes) {
  for (const index of workloads.keys()) {
    const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], {
      env: { ...process.env, ROUTER_BENCH_WORKLOAD: `${index}:${strings}` },
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    });
    if (child.status !== 0) throw new Error(`workload ${index} failed: ${child.stderr}`);
    results.push(...(JSON.parse(child.stdout.trim().split('\n').pop()!) as Row[]));
  }
}

/** Read from the installed package's own package.json (some packages do not export it). */
const versionOf = (name: string) =>
  (JSON.parse(readFileSync(new URL(`node_modules/${name}/package.json`, import.meta.url), 'utf8')) as { version: string }).version;
console.log(`\n## Router: GitHub API table (${rows.length} routes)\n${machineLine()}`);
console.log(
  `Peers: find-my-way ${versionOf('find-my-way')}, hono ${versionOf('hono')}, koa-tree-router ${versionOf('koa-tree-router')}, memoirist ${versionOf('memoirist')}, rou3 ${versionOf('rou3')}, path-to-regexp ${versionOf('path-to-regexp')}\n`,
);
for (const strings of stringModes) {
  const ofMode = results.filter((r) => r.strings === strings);
  const slice = ofMode.find((r) => r.sliceNs > 0)?.sliceNs;
  console.log(`\n### ${strings} strings${slice === undefined ? '' : ` (slice alone: ${slice.toFixed(1)} ns per lookup, subtracted)`}\n`);
  console.log('| workload | contender | lookups/s | ns/lookup | vs best peer |\n|---|---|---:|---:|---:|');
  const ownHit = (contender: string) => ofMode.find((r) => r.contender === contender && r.workload.startsWith('dynamic'))!.opsPerSecond;
  for (const workload of [...new Set(ofMode.map((r) => r.workload))]) {
    const rowsOf = ofMode.filter((r) => r.workload === workload);
    const peers = rowsOf.filter((r) => !r.contender.startsWith('switchboard'));
    const best = peers.length > 0 ? Math.max(...peers.map((r) => r.opsPerSecond)) : null;
    // (405 and slash toggles: no peer does this work, so they are set against our own dynamic hit.)
    for (const row of rowsOf) {
      const ratio =
        best === null
          ? `${(row.opsPerSecond / ownHit(row.contender)).toFixed(2)}× its dynamic hit`
          : `${(row.opsPerSecond / best).toFixed(2)}×`;
      const ns = (1e9 / row.opsPerSecond).toFixed(1);
      console.log(`| ${workload} | ${row.contender} | ${Math.round(row.opsPerSecond).toLocaleString('en-US')} | ${ns} | ${ratio} |`);
    }
  }
}
reportJson('router', results);
