/**
 * Runs every `bench/*.bench.ts` in turn, each in its own Node process (so one benchmark's JIT
 * state and garbage do not bend the next one's figures). Add a benchmark by adding a file; this
 * runner needs no edit. `BENCH_TIME_MS` and `BENCH_JSON` pass through to each benchmark.
 * Run: `npx -y pnpm@10.34.8 bench` (or `cd bench && node --import tsx run-all.ts`).
 */
import './built-packages.js';
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(here)
  .filter((file) => file.endsWith('.bench.ts'))
  .filter((file) => only.length === 0 || only.some((name) => file.includes(name)))
  .sort();

let failed = 0;
for (const file of files) {
  console.log(`\n# ${file}`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', file], {
    cwd: here,
    stdio: 'inherit',
    env: process.env,
  });
  if (run.status !== 0) {
    failed++;
    console.error(`${file} failed (exit ${run.status ?? run.signal})`);
  }
}
if (failed > 0) process.exitCode = 1;
