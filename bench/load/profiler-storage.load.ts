/**
 * The example host in debug mode under a scanner: 100,000 unmatched requests (each a 404 through
 * the error sub-request, so two profiles), 100 at a time over keep-alive connections, with the
 * profiler's file storage (`PROFILER_DIR`) and with its memory storage. The host runs as
 * `pnpm start` runs it, in its own process; its RSS and heap are sampled every 100 ms, and once
 * more after a full GC when the load is over. Then a last burst of requests, a SIGTERM right after
 * it, and (file storage) how many of the tokens that burst announced a restarted storage finds.
 *
 * Bounded: `LOAD_REQUESTS` (default 100,000) and `LOAD_CONNECTIONS` (100), and at most
 * `LOAD_TIME_LIMIT_S` (300) per storage.
 * Run: `npx -y pnpm@10.34.8 --filter @switchboard/bench load:profiler-storage`
 *   (or `cd bench && node --conditions=@switchboard/source --import tsx load/profiler-storage.load.ts`:
 *   the host runs from the TypeScript sources, as `pnpm start` runs it)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileProfilerStorage } from '@switchboard/profiler';
import { machineLine } from '../report.js';
import type { MemorySample } from './memory-sampler.js';

const REQUESTS = Number(process.env.LOAD_REQUESTS ?? 100_000);
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 100);
const TIME_LIMIT_MS = Number(process.env.LOAD_TIME_LIMIT_S ?? 300) * 1000;
/** Requests of the burst sent right before SIGTERM, whose tokens are looked up afterwards. */
const FINAL_BURST = 200;

const hostDir = fileURLToPath(new URL('../../examples/api-host/', import.meta.url));
const sampler = fileURLToPath(new URL('./memory-sampler.ts', import.meta.url));
const MiB = 2 ** 20;

interface Host {
  child: ChildProcess;
  url: string;
  samples: MemorySample[];
  /** Host log lines saying the storage dropped profiles. */
  dropWarnings: number;
  exited: Promise<number | null>;
}

async function startHost(profilerDir: string | null): Promise<Host> {
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--conditions=@switchboard/source', '--import', 'tsx', '--import', sampler, 'src/main.ts'],
    {
      cwd: hostDir,
      env: { ...process.env, PORT: '0', APP_HOST: '127.0.0.1', APP_DEBUG: '1', API_HOST_CONFIG: '', PROFILER_DIR: profilerDir ?? '' },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    },
  );
  const host: Partial<Host> & { samples: MemorySample[]; dropWarnings: number } = { child, samples: [], dropWarnings: 0 };
  child.on('message', (sample: MemorySample) => host.samples.push(sample));
  // Every 404 is logged; only the storage's warnings are counted, nothing is kept.
  let tail = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (tail + chunk).split('\n');
    tail = lines.pop()!;
    for (const line of lines) if (line.includes('fall behind')) host.dropWarnings++;
  });
  host.exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  host.url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /listening on (\S+)/.exec(out);
      if (match !== null) resolve(match[1]!);
    });
    void host.exited!.then((code) => reject(new Error(`host exited with ${code}: ${out}`)));
  });
  return host as Host;
}

interface Answer {
  status: number;
  tokens: string[];
}

function get(agent: http.Agent, url: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (response) => {
        response.resume();
        response.on('end', () => {
          const tokens = [response.headers['x-debug-token'], response.headers['x-previous-debug-token']].filter(
            (token): token is string => typeof token === 'string',
          );
          resolve({ status: response.statusCode ?? 0, tokens });
        });
      })
      .on('error', reject);
  });
}

/** `count` unmatched requests, `CONNECTIONS` at a time; stops early at the time limit. */
async function scan(
  host: Host,
  count: number,
  prefix: string,
): Promise<{ done: number; not404: number; errors: number; tokens: string[]; ms: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const started = performance.now();
  let next = 0;
  let done = 0;
  let not404 = 0;
  let errors = 0;
  const tokens: string[] = [];
  const worker = async (): Promise<void> => {
    while (next < count && performance.now() - started < TIME_LIMIT_MS) {
      const i = next++;
      try {
        const answer = await get(agent, `${host.url}/${prefix}/wp-admin/scan-${i}.php?id=${i}`);
        if (answer.status !== 404) not404++;
        if (count <= FINAL_BURST) tokens.push(...answer.tokens);
      } catch {
        errors++;
      }
      done++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONNECTIONS, count) }, worker));
  agent.destroy();
  return { done, not404, errors, tokens, ms: performance.now() - started };
}

async function afterGc(host: Host): Promise<MemorySample> {
  const seen = host.samples.length;
  host.child.send('gc');
  while (!host.samples.slice(seen).some((sample) => sample.afterGc)) await new Promise((resolve) => setTimeout(resolve, 20));
  return host.samples.slice(seen).find((sample) => sample.afterGc)!;
}

interface Row {
  storage: string;
  requests: number;
  rps: number;
  not404: number;
  errors: number;
  peakRss: number;
  peakHeap: number;
  finalRss: number;
  finalHeap: number;
  dropWarnings: number;
  shutdownMs: number;
  announced: number;
  found: number | null;
}

async function run(storage: 'file' | 'memory'): Promise<Row> {
  const directory = storage === 'file' ? mkdtempSync(join(tmpdir(), 'profiler-load-')) : null;
  const host = await startHost(directory);
  try {
    // Warm-up, so the first samples are not start-up noise.
    await scan(host, 1000, 'warm');
    const load = await scan(host, REQUESTS, 'scan');
    const settled = await afterGc(host);
    const burst = await scan(host, FINAL_BURST, 'last');
    const stopAt = performance.now();
    host.child.kill('SIGTERM');
    const code = await host.exited;
    const shutdownMs = performance.now() - stopAt;
    if (code !== 0) throw new Error(`host exited with ${code} after SIGTERM`);
    const found = directory === null ? null : burst.tokens.filter((token) => new FileProfilerStorage({ directory }).has(token)).length;
    const during = host.samples.filter((sample) => !sample.afterGc);
    return {
      storage,
      requests: load.done,
      rps: (load.done / load.ms) * 1000,
      not404: load.not404 + burst.not404,
      errors: load.errors + burst.errors,
      peakRss: Math.max(...during.map((sample) => sample.rss)),
      peakHeap: Math.max(...during.map((sample) => sample.heapUsed)),
      finalRss: settled.rss,
      finalHeap: settled.heapUsed,
      dropWarnings: host.dropWarnings,
      shutdownMs,
      announced: burst.tokens.length,
      found,
    };
  } finally {
    host.child.kill('SIGKILL');
    if (directory !== null) rmSync(directory, { recursive: true, force: true });
  }
}

const rows: Row[] = [];
for (const storage of ['file', 'memory'] as const) {
  console.log(`${storage} storage: ${REQUESTS.toLocaleString('en-US')} unmatched requests, ${CONNECTIONS} concurrent…`);
  rows.push(await run(storage));
}

const mib = (bytes: number): string => (bytes / MiB).toFixed(0);
console.log(
  `\n## Profiler storage under a scanner (debug mode, ${REQUESTS.toLocaleString('en-US')} unmatched requests, ${CONNECTIONS} concurrent)\n${machineLine()}\n`,
);
console.log(
  '| storage | requests done | req/s | not 404 / errors | peak RSS MiB | peak heap MiB | RSS after GC MiB | heap after GC MiB | drop warnings | SIGTERM → exit ms | burst tokens found after restart |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const row of rows) {
  const found = row.found === null ? 'n/a (memory)' : `${row.found} / ${row.announced}`;
  console.log(
    `| ${row.storage} | ${row.requests.toLocaleString('en-US')} | ${Math.round(row.rps).toLocaleString('en-US')} | ${row.not404} / ${row.errors} | ${mib(row.peakRss)} | ${mib(row.peakHeap)} | ${mib(row.finalRss)} | ${mib(row.finalHeap)} | ${row.dropWarnings} | ${Math.round(row.shutdownMs)} | ${found} |`,
  );
}
const [file, memory] = rows;
if (file !== undefined && memory !== undefined) {
  console.log(
    `\nfile ÷ memory: peak heap ${(file.peakHeap / memory.peakHeap).toFixed(2)}×, heap after GC ${(file.finalHeap / memory.finalHeap).toFixed(2)}×, req/s ${(file.rps / memory.rps).toFixed(2)}×`,
  );
}
