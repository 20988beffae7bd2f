/**
 * One host process against `WORKERS=2` on this machine, in production mode on a real PostgreSQL
 * server (`DATABASE_URL`): req/s and latency of a mix of API reads (items list and item from
 * PostgreSQL, `/api/me` with a JWT, a 404). Both hosts run side by side on the built packages; the
 * load alternates between them, `ROUNDS` rounds of `LOAD_SECONDS` each (after a 3 s warm-up), so
 * drift on this shared machine hits both. The load generator, PostgreSQL and the workers share the
 * machine's cores: the ratio says what a second worker buys here, not on a larger machine.
 *
 * Run: `npx -y pnpm@10.34.8 run build && npx -y pnpm@10.34.8 --filter @switchboard/bench load:workers`.
 * Env: LOAD_SECONDS (default 10), ROUNDS (default 2), LOAD_CONNECTIONS (default 50).
 */
import '../built-packages.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { nullLogger } from '@switchboard/http-kernel';
import { securityConfigFromEnv } from '../../examples/api-host/src/security/security-config.js';
import { startPostgres } from '../../test/kit/services/database-servers.js';
import { machineLine } from '../report.js';
import { RoundTotals, runRound } from './alternating-rounds.js';
import { apiCall, login, startBenchHost, thousands, type BenchHost, type MixEntry } from './host-process.js';

const seconds = Number(process.env.LOAD_SECONDS ?? 10);
const rounds = Number(process.env.ROUNDS ?? 2);
const connections = Number(process.env.LOAD_CONNECTIONS ?? 50);

const scratch = mkdtempSync(join(tmpdir(), 'bench-workers-'));
const keys = securityConfigFromEnv({}, nullLogger, scratch);
const postgres = await startPostgres();
await keepIdleSessions(postgres.connectionString);
const env = {
  APP_DEBUG: '0',
  // The demo accounts, on purpose: the bench logs in as them.
  ALLOW_DEMO_USERS: '1',
  DATABASE_URL: postgres.connectionString,
  JWT_SECRET_KEY: keys.privateKeyPath,
  JWT_PUBLIC_KEY: keys.publicKeyPath,
  JWT_PASSPHRASE: keys.passphrase!,
};

/**
 * The test server drops sessions idle for a second (for the tests of the idle-connection step); a
 * host waiting while the other is measured would meet dropped connections. Here sessions stay.
 */
async function keepIdleSessions(connectionString: string): Promise<void> {
  interface SqlClient {
    connect(): Promise<unknown>;
    query(sql: string): Promise<unknown>;
    end(): Promise<void>;
  }
  const requireFromHost = createRequire(new URL('../../examples/api-host/package.json', import.meta.url));
  const { Client } = requireFromHost('pg') as { Client: new (options: { connectionString: string }) => SqlClient };
  const client = new Client({ connectionString });
  await client.connect();
  await client.query('ALTER DATABASE postgres SET idle_session_timeout = 0');
  await client.end();
}

/** Reads through PostgreSQL, an authenticated read, a 404; each response's status checked. */
function apiMix(totals: RoundTotals, token: string, itemId: number): MixEntry[] {
  const json = { accept: 'application/json' };
  const expect = (status: number) => (actual: number) => {
    if (actual !== status) totals.wrong++;
  };
  return [
    { method: 'GET', path: '/api/items', headers: json, onResponse: expect(200) },
    { method: 'GET', path: `/api/items/${itemId}`, headers: json, onResponse: expect(200) },
    { method: 'GET', path: '/api/me', headers: { ...json, authorization: `Bearer ${token}` }, onResponse: expect(200) },
    { method: 'GET', path: '/no-such-page', headers: json, onResponse: expect(404) },
  ];
}

const round = (host: BenchHost, token: string, itemId: number, totals: RoundTotals | null, duration: number) =>
  runRound(host, totals, { connections, duration, mix: (sink) => apiMix(sink, token, itemId) });

const hosts: Array<[string, BenchHost]> = [];
try {
  hosts.push(['1 process', await startBenchHost({ ...env, WORKERS: '1' })]);
  hosts.push(['WORKERS=2', await startBenchHost({ ...env, WORKERS: '2' })]);
  const base = hosts[0]![1].url;
  const created = await apiCall(`${base}/api/items`, 'POST', { name: 'bench item', quantity: 3 }, await login(base, 'admin'));
  if (created.status !== 201) throw new Error(`creating the bench item answered ${created.status}`);
  const itemId = (created.json as { id: number }).id;
  const token = await login(base, 'demo');
  const load = `load average ${loadavg()
    .map((value) => value.toFixed(1))
    .join(' / ')} at start`;

  for (const [, host] of hosts) await round(host, token, itemId, null, 3);
  const totals = new Map(hosts.map(([name]) => [name, new RoundTotals()]));
  for (let done = 0; done < rounds; done++) {
    for (const [name, host] of hosts) await round(host, token, itemId, totals.get(name)!, seconds);
  }

  console.log(`\n## Example host: one process vs WORKERS=2 (production mode, PostgreSQL)\n${machineLine()}; ${load}\n`);
  console.log(
    `${connections} keep-alive connections, mix: items list, one item, /api/me, a 404; ${rounds} alternating rounds of ${seconds} s.\n`,
  );
  console.log(
    '| host | req/s (per round) | p50 | p99 (worst round) | host CPU per request | host cores used | machine busy | wrong | errors |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  const rps = new Map<string, number>();
  for (const [name, t] of totals) {
    rps.set(name, t.requestsPerSecond);
    const perRound = t.roundRates.map(thousands).join(', ');
    console.log(
      `| ${name} | ${thousands(t.requestsPerSecond)} (${perRound}) | ${Math.max(...t.p50)} ms | ${Math.max(...t.p99)} ms | ${t.hostCpuPerRequest.toFixed(0)} µs | ${(t.hostCpu / t.seconds).toFixed(2)} | ${t.machineBusyText} | ${t.wrong} | ${t.errors} |`,
    );
  }
  console.log(`\nWORKERS=2 ÷ one process: req/s ${(rps.get('WORKERS=2')! / rps.get('1 process')!).toFixed(2)}×`);
  for (const [name, host] of hosts) for (const line of host.linesWith('CRITICAL')) console.log(`${name}: ${line}`);
  for (const [name, host] of hosts) for (const line of host.linesWith('replaced')) console.log(`${name}: ${line}`);
  const wrong = [...totals.values()].reduce((sum, t) => sum + t.wrong, 0);
  if (wrong > 0) process.exitCode = 1;
} finally {
  for (const [name, host] of hosts) {
    const code = await host.stop();
    if (code !== 0) console.log(`${name} exited with ${code}`);
  }
  await postgres.stop();
  rmSync(scratch, { recursive: true, force: true });
}
