/**
 * The example host's 404 path in debug mode (every request profiled: a main request and its error
 * page), with profiles in memory (the default) and in Redis (`PROFILER_REDIS_URL`, a private
 * redis-server). Two hosts run side by side on the built packages; the load alternates between
 * them, `ROUNDS` rounds of `LOAD_SECONDS` each (after a 3 s warm-up), so drift on this shared
 * machine hits both. Reports per storage: req/s, p50/p99, the host's CPU time per request, and for
 * Redis also redis-server's own (from its INFO), with the ratios Redis ÷ memory.
 *
 * Run: `npx -y pnpm@10.34.8 run build && npx -y pnpm@10.34.8 --filter @switchboard/bench load:profiler-redis`.
 * Env: LOAD_SECONDS (default 10), ROUNDS (default 2), LOAD_CONNECTIONS (default 10).
 */
import '../built-packages.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { nullLogger } from '@switchboard/http-kernel';
import { securityConfigFromEnv } from '../../examples/api-host/src/security/security-config.js';
import { RedisServer } from '../../test/kit/services/redis-server.js';
import { machineLine } from '../report.js';
import { RoundTotals, runRound } from './alternating-rounds.js';
import { startBenchHost, thousands, type BenchHost, type MixEntry } from './host-process.js';

const seconds = Number(process.env.LOAD_SECONDS ?? 10);
const rounds = Number(process.env.ROUNDS ?? 2);
const connections = Number(process.env.LOAD_CONNECTIONS ?? 10);

const scratch = mkdtempSync(join(tmpdir(), 'bench-profiler-redis-'));
const keys = securityConfigFromEnv({}, nullLogger, scratch);
const keyEnv = { JWT_SECRET_KEY: keys.privateKeyPath, JWT_PUBLIC_KEY: keys.publicKeyPath, JWT_PASSPHRASE: keys.passphrase! };
const redis = await RedisServer.start();
const inspector = await redis.inspector();

/** redis-server's own CPU seconds so far (INFO cpu). */
async function redisCpuSeconds(): Promise<number> {
  const info = await inspector.info('cpu');
  const field = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? 0);
  return field('used_cpu_user') + field('used_cpu_sys');
}

/** `GET /robots.txt` (no such route): a 404 carrying its profile token, checked on every response. */
function notFoundMix(totals: RoundTotals): MixEntry[] {
  return [
    {
      method: 'GET',
      path: '/robots.txt',
      headers: { accept: 'application/json' },
      onResponse: (status, _body, _context, headers) => {
        if (status !== 404 || !/^[0-9a-f]+$/.test(headers['x-debug-token'] ?? '')) totals.wrong++;
      },
    },
  ];
}

const round = (host: BenchHost, totals: RoundTotals | null, duration: number) =>
  runRound(host, totals, { connections, duration, mix: notFoundMix, serverCpuSeconds: redisCpuSeconds });

const hosts: Array<[string, BenchHost]> = [];
try {
  hosts.push(['memory', await startBenchHost({ ...keyEnv, APP_DEBUG: '1' })]);
  hosts.push(['Redis', await startBenchHost({ ...keyEnv, APP_DEBUG: '1', PROFILER_REDIS_URL: redis.url })]);
  const load = `load average ${loadavg()
    .map((value) => value.toFixed(1))
    .join(' / ')} at start`;
  for (const [, host] of hosts) await round(host, null, 3);
  const totals = new Map(hosts.map(([name]) => [name, new RoundTotals()]));
  for (let done = 0; done < rounds; done++) {
    for (const [name, host] of hosts) await round(host, totals.get(name)!, seconds);
  }

  console.log(`\n## Example host, 404 in debug mode: profiles in memory vs in Redis\n${machineLine()}; ${load}\n`);
  console.log(`${connections} keep-alive connections, ${rounds} alternating rounds of ${seconds} s per storage.\n`);
  console.log(
    '| storage | req/s (per round) | p50 | p99 (worst round) | host CPU per request | + redis-server CPU | host cores used | machine busy | wrong | errors |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  const summary = new Map<string, { cpu: number; total: number; p99: number; rps: number }>();
  for (const [name, t] of totals) {
    const hostUs = t.hostCpuPerRequest;
    const redisUs = (t.serverCpu / t.requests) * 1e6;
    const p99 = Math.max(...t.p99);
    summary.set(name, { cpu: hostUs, total: hostUs + (name === 'Redis' ? redisUs : 0), p99, rps: t.requestsPerSecond });
    const perRound = t.roundRates.map(thousands).join(', ');
    console.log(
      `| ${name} | ${thousands(t.requestsPerSecond)} (${perRound}) | ${Math.max(...t.p50)} ms | ${p99} ms | ${hostUs.toFixed(0)} µs | ${name === 'Redis' ? `${redisUs.toFixed(0)} µs` : '—'} | ${(t.hostCpu / t.seconds).toFixed(2)} | ${t.machineBusyText} | ${t.wrong} | ${t.errors} |`,
    );
  }
  const memory = summary.get('memory')!;
  const inRedis = summary.get('Redis')!;
  console.log(
    `\nRedis ÷ memory: host CPU per request ${(inRedis.cpu / memory.cpu).toFixed(2)}×, host + redis-server ${(inRedis.total / memory.cpu).toFixed(2)}×, ` +
      `p99 ${(inRedis.p99 / memory.p99).toFixed(2)}×, req/s ${(inRedis.rps / memory.rps).toFixed(2)}×`,
  );
  const storageLines = hosts.flatMap(([, host]) => host.linesWith('Profiler storage'));
  console.log(`Profiler storage log lines: ${storageLines.length === 0 ? 'none (Redis kept up)' : `\n${storageLines.join('\n')}`}`);
  for (const [name, host] of hosts) for (const line of host.linesWith('CRITICAL')) console.log(`${name} host: ${line}`);
  const wrong = [...totals.values()].reduce((sum, t) => sum + t.wrong, 0);
  if (wrong > 0) process.exitCode = 1;
} finally {
  for (const [, host] of hosts) await host.stop();
  await inspector.close();
  await redis.close();
  rmSync(scratch, { recursive: true, force: true });
}
