/**
 * `POST /api/items/import` of the largest file the example host takes (1 MiB, about 34,000 items)
 * on the embedded PGlite and on PostgreSQL (`DATABASE_URL`), production mode, built packages:
 * how long the import takes, and how long `/health` and `GET /api/items` (a database query) wait
 * meanwhile — each probed one request after another for as long as the import runs. The same
 * probes on the idle host give the baseline. `ROUNDS` imports per database (default 2), each
 * bounded by a 120 s guard.
 *
 * Run: `npx -y pnpm@10.34.8 run build && npx -y pnpm@10.34.8 --filter @switchboard/bench load:import`.
 */
import '../built-packages.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nullLogger } from '@switchboard/http-kernel';
import { securityConfigFromEnv } from '../../examples/api-host/src/security/security-config.js';
import { itemImportMaxBytes } from '../../examples/api-host/src/wiring/item-import.js';
import { largestImportFile } from '../../test/kit/largest-import-file.js';
import { startPostgres } from '../../test/kit/services/database-servers.js';
import { machineLine } from '../report.js';
import { login, startBenchHost } from './host-process.js';

const rounds = Number(process.env.ROUNDS ?? 2);
/** Stops a probe loop that the import never ends (a hang), and bounds the requests of an idle baseline. */
const GUARD_MS = 120_000;
const BASELINE_REQUESTS = 50;

const scratch = mkdtempSync(join(tmpdir(), 'bench-import-'));
const keys = securityConfigFromEnv({}, nullLogger, scratch);
const baseEnv = {
  APP_DEBUG: '0',
  // The demo accounts, on purpose: the bench imports as `admin`.
  ALLOW_DEMO_USERS: '1',
  JWT_SECRET_KEY: keys.privateKeyPath,
  JWT_PUBLIC_KEY: keys.publicKeyPath,
  JWT_PASSPHRASE: keys.passphrase!,
};

/** Latencies (ms) of requests to `path`, one after another, while `running()` holds (at most `limit` requests). */
async function probe(url: string, running: () => boolean, limit: number): Promise<number[]> {
  const latencies: number[] = [];
  const deadline = Date.now() + GUARD_MS;
  while (running() && latencies.length < limit && Date.now() < deadline) {
    const started = performance.now();
    const response = await fetch(url, { headers: { accept: 'application/json' } });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${url} answered ${response.status} during the import`);
    latencies.push(performance.now() - started);
  }
  return latencies;
}

const p50 = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const max = (values: number[]): number => values.reduce((most, value) => Math.max(most, value), 0);
const ms = (value: number): string => `${Math.round(value)}`;

interface Row {
  database: string;
  importMs: number;
  health: number[];
  items: number[];
  idleItems: number[];
}

async function measure(database: string, env: Record<string, string>, file: { text: string; count: number }): Promise<Row[]> {
  const host = await startBenchHost({ ...baseEnv, ...env });
  try {
    const token = await login(host.url, 'admin');
    const idleItems = await probe(`${host.url}/api/items`, () => true, BASELINE_REQUESTS);
    const rows: Row[] = [];
    for (let round = 0; round < rounds; round++) {
      const form = new FormData();
      form.set('file', new File([file.text], 'items.jsonl', { type: 'application/jsonl' }));
      let done = false;
      const started = performance.now();
      const imported = fetch(`${host.url}/api/items/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
        body: form,
      }).then(async (response) => {
        const body = (await response.json()) as { imported?: number };
        if (response.status !== 201 || body.imported !== file.count) throw new Error(`the import answered ${response.status}`);
        return performance.now() - started;
      });
      void imported.finally(() => (done = true)).catch(() => undefined);
      const [importMs, health, items] = await Promise.all([
        imported,
        probe(`${host.url}/health`, () => !done, Number.MAX_SAFE_INTEGER),
        probe(`${host.url}/api/items`, () => !done, Number.MAX_SAFE_INTEGER),
      ]);
      rows.push({ database, importMs, health, items, idleItems });
    }
    return rows;
  } finally {
    await host.stop();
  }
}

const file = largestImportFile(itemImportMaxBytes({}));
const rows: Row[] = [];
try {
  rows.push(...(await measure('PGlite', { PGLITE_DATA_DIR: 'memory://' }, file)));
  const postgres = await startPostgres();
  try {
    rows.push(...(await measure('PostgreSQL', { DATABASE_URL: postgres.connectionString }, file)));
  } finally {
    await postgres.stop();
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

console.log(`\n## Import of the largest file (${file.count} items) and the requests around it\n${machineLine()}\n`);
console.log(
  '| database | import (ms) | /health during: p50 / max (ms) | GET /api/items during: p50 / max (ms) | GET /api/items idle p50 (ms) | worst wait / import |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
for (const row of rows) {
  const worst = Math.max(max(row.health), max(row.items));
  console.log(
    `| ${row.database} | ${ms(row.importMs)} | ${ms(p50(row.health))} / ${ms(max(row.health))} (${row.health.length}) | ${ms(p50(row.items))} / ${ms(max(row.items))} (${row.items.length}) | ${ms(p50(row.idleItems))} | ${(worst / row.importMs).toFixed(2)} |`,
  );
}
