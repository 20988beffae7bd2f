/**
 * What tracing costs a request, without HTTP: `HttpKernel.handleEagerly` for the JSON hello and
 * for a 404 (router miss → error sub-request), with the listeners of the HTTP benchmark's
 * Switchboard app (debug off), in three setups, each in its own process (the OpenTelemetry
 * context manager is process-wide): no subscriber of the kernel's tracing channels; the
 * OpenTelemetry bridge on the SDK (AsyncLocalStorage context manager, a no-op span processor, so
 * span creation is measured, not export); the bridge with listener spans. CPU time per request
 * (process.cpuUsage, so the time other processes take from a shared machine is not counted),
 * median of the rounds; ratios against no subscriber in the same run.
 * Run: `cd bench && node --import tsx opentelemetry.bench.ts` (env: BENCH_OTEL_ROUNDS, default 25)
 */
import './built-packages.js';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, NoopSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { HeaderBag, HttpKernel, Request } from '@switchboard/http-kernel';
import { OpenTelemetryBridge } from '@switchboard/opentelemetry';
import { helloDispatcher } from './http/apps/switchboard.js';
import { HELLO_PATH, MISSING_PATH } from './http/contract.js';
import { machineLine, reportJson } from './report.js';

const ROUNDS = Number(process.env.BENCH_OTEL_ROUNDS ?? 25);
const PER_ROUND = 5_000;
const SETUPS = ['no subscriber', 'bridge', 'bridge + listener spans'] as const;
type Setup = (typeof SETUPS)[number];

interface Row {
  setup: Setup;
  helloNs: number;
  notFoundNs: number;
}

/** In a child: one setup measured, its row printed as JSON. */
function measure(setup: Setup): Row {
  const dispatcher = helloDispatcher();
  const kernel = new HttpKernel({ dispatcher });
  if (setup !== 'no subscriber') {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    const provider = new BasicTracerProvider({ spanProcessors: [new NoopSpanProcessor()] });
    new OpenTelemetryBridge({ tracerProvider: provider, listenerSpans: setup === 'bridge + listener spans' }).enable();
  }
  const headers = ['Host', '127.0.0.1:8080', 'Accept', 'application/json'];
  const requestFor = (path: string): Request =>
    new Request({ method: 'GET', scheme: 'http', host: '127.0.0.1', port: 8080, path, headers: HeaderBag.fromRawList(headers) });
  const cpuNsPerRequest = (path: string, status: number): number => {
    const answer = kernel.handleEagerly(requestFor(path));
    if (answer instanceof Promise || answer.status !== status) throw new Error(`${path} did not answer ${status} at once`);
    for (let i = 0; i < 50_000; i++) kernel.handleEagerly(requestFor(path));
    const rounds: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const started = process.cpuUsage();
      for (let i = 0; i < PER_ROUND; i++) kernel.handleEagerly(requestFor(path));
      const used = process.cpuUsage(started);
      rounds.push(((used.user + used.system) * 1000) / PER_ROUND);
    }
    return rounds.sort((a, b) => a - b)[ROUNDS >> 1]!;
  };
  return { setup, helloNs: cpuNsPerRequest(HELLO_PATH, 200), notFoundNs: cpuNsPerRequest(MISSING_PATH, 404) };
}

const childSetup = process.env.BENCH_OTEL_SETUP as Setup | undefined;
if (childSetup !== undefined) {
  process.stdout.write(JSON.stringify(measure(childSetup)));
} else {
  const file = fileURLToPath(import.meta.url);
  const rows = SETUPS.map((setup): Row => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', file], {
      env: { ...process.env, BENCH_OTEL_SETUP: setup },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    if (run.status !== 0) throw new Error(`${setup} failed (exit ${run.status ?? run.signal})`);
    return JSON.parse(run.stdout) as Row;
  });
  const base = rows[0]!;
  console.log(`\n## Tracing cost per request, kernel only (CPU time, median of ${ROUNDS} rounds of ${PER_ROUND})\n${machineLine()}\n`);
  console.log('| setup | hello ns | vs no subscriber | 404 ns | vs no subscriber |\n|---|---:|---:|---:|---:|');
  for (const row of rows) {
    console.log(
      `| ${row.setup} | ${row.helloNs.toFixed(0)} | ${(row.helloNs / base.helloNs).toFixed(2)}× | ${row.notFoundNs.toFixed(0)} | ${(row.notFoundNs / base.notFoundNs).toFixed(2)}× |`,
    );
  }
  reportJson('opentelemetry', rows);
}
