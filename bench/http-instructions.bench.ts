/**
 * Instructions per request, counted rather than timed: each contender of the in-process benchmark
 * (http-inprocess.bench.ts) serves a fixed number of requests under valgrind (cachegrind without
 * its cache simulation), once LOW and once HIGH requests; the difference of the two counts over
 * HIGH − LOW is what one request costs in instructions, start-up and warm-up cancelled. V8 runs
 * with `--predictable` (one thread, a fixed collection schedule), whatever else the machine does.
 * Counts still move a little (fixed hash and random seeds did not stop it; work that follows the
 * wall clock, a `Date` written once a second or node's timers, is the likely cause). Most of that
 * movement is a fixed amount per run, so it is spread over HIGH − LOW requests: with 10,000 and
 * 30,000 one pair moved by up to 4%, with 10,000 and 60,000 pairs of one build mostly agree within
 * 0.2k instructions, with an odd one up to 4% off. So each pair is counted REPEATS times and the
 * median reported with its range. Counts judge a change of 3% or more that times on a shared
 * machine cannot; they are not times (a cache miss or a collection costs more than its
 * instructions say), so the timed benchmarks stay the measure of the targets.
 *
 * Needs valgrind (Debian: `apt-get install valgrind`); without it the benchmark says so and stops.
 * Run: `cd bench && node --import tsx http-instructions.bench.ts` (about 15 minutes on 2 cores for the three default contenders).
 * Env: BENCH_INSTR_LOW (default 10000), BENCH_INSTR_HIGH (default 60000), BENCH_INSTR_REPEATS (default 3),
 * BENCH_INSTR_CONTENDERS (`|`-separated full names from http-inprocess.bench.ts; default bare
 * node:http, Switchboard with debug off, Fastify).
 */
import './built-packages.js';
import { execFile, spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { promisify } from 'node:util';
import { compileEntry } from './http/compile.js';
import { machineLine, median, reportJson } from './report.js';

const low = Number(process.env.BENCH_INSTR_LOW ?? 10_000);
const high = Number(process.env.BENCH_INSTR_HIGH ?? 60_000);
const repeats = Number(process.env.BENCH_INSTR_REPEATS ?? 3);
const contenders = (process.env.BENCH_INSTR_CONTENDERS ?? 'node:http (bare)|Switchboard, debug off|Fastify').split('|');
const cases = ['hello', '404'];

if (spawnSync('valgrind', ['--version']).status !== 0) {
  console.log('http-instructions: valgrind is not installed (Debian: apt-get install valgrind); nothing counted.');
  process.exit(0);
}

const script = await compileEntry('http-inprocess.bench.ts');
const run = promisify(execFile);

/** The instructions a process serving `count` requests of `caseName` executes, start to exit. */
async function instructions(contender: string, caseName: string, count: number): Promise<number> {
  const { stderr } = await run(
    'valgrind',
    ['--tool=cachegrind', '--cache-sim=no', '--cachegrind-out-file=/dev/null', process.execPath, '--predictable', script],
    {
      cwd: new URL('.', import.meta.url),
      env: {
        ...process.env,
        NODE_ENV: 'production',
        BENCH_INPROC_CONTENDER: contender,
        BENCH_INPROC_CASE: caseName,
        BENCH_INPROC_SERVE: String(count),
      },
      timeout: 900_000,
      maxBuffer: 16 * 2 ** 20,
    },
  );
  const refs = /I\s+refs:\s+([\d,]+)/.exec(stderr);
  if (refs === null) throw new Error(`no instruction count for ${contender} ${caseName}:\n${stderr}`);
  return Number(refs[1]!.replaceAll(',', ''));
}

// Every (contender, case, count, repeat) run is independent: as many at once as there are cores.
const jobs = contenders.flatMap((contender) =>
  cases.flatMap((caseName) =>
    Array.from({ length: repeats }, (_, repeat) => [low, high].map((count) => ({ contender, caseName, count, repeat }))).flat(),
  ),
);
const counted = new Map<string, number>();
let next = 0;
await Promise.all(
  Array.from({ length: Math.min(availableParallelism(), jobs.length) }, async () => {
    while (next < jobs.length) {
      const job = jobs[next++]!;
      counted.set(
        `${job.contender} ${job.caseName} ${job.count} ${job.repeat}`,
        await instructions(job.contender, job.caseName, job.count),
      );
    }
  }),
);

/** Instructions per request of each repeat. */
const perRequest = (contender: string, caseName: string): number[] =>
  Array.from(
    { length: repeats },
    (_, repeat) =>
      (counted.get(`${contender} ${caseName} ${high} ${repeat}`)! - counted.get(`${contender} ${caseName} ${low} ${repeat}`)!) /
      (high - low),
  );
const medianPerRequest = (contender: string, caseName: string): number => median(perRequest(contender, caseName));
const ratio = (contender: string, caseName: string, base: string): string =>
  contenders.includes(base) ? `${(medianPerRequest(contender, caseName) / medianPerRequest(base, caseName)).toFixed(2)}×` : '–';
const thousands = (value: number): string => `${(value / 1000).toFixed(1)}k`;

console.log('\n## HTTP in process: instructions per request (valgrind, V8 --predictable)');
console.log(machineLine());
console.log(`(count with ${high} requests − count with ${low}) ÷ ${high - low}, one process per count; median of ${repeats} (range)\n`);
console.log('| server | hello instructions/req | vs node:http | vs Fastify | 404 instructions/req | vs node:http | vs Fastify |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
const rows = contenders.map((contender) => {
  const cells = cases.map((caseName) => {
    const values = perRequest(contender, caseName);
    const range = `${thousands(Math.min(...values))}–${thousands(Math.max(...values))}`;
    return `${Math.round(medianPerRequest(contender, caseName)).toLocaleString('en')} (${range}) | ${ratio(contender, caseName, 'node:http (bare)')} | ${ratio(contender, caseName, 'Fastify')}`;
  });
  console.log(`| ${contender} | ${cells.join(' | ')} |`);
  return { name: contender, hello: medianPerRequest(contender, 'hello'), notFound: medianPerRequest(contender, '404') };
});
reportJson('http-instructions', rows);
