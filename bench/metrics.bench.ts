/**
 * What recording metrics adds to a request, without HTTP: `HttpKernel.handleEagerly` for the JSON
 * hello and for a 404 (router miss → error sub-request), then `terminateEagerly` as the node
 * adapter runs it once the answer went out, with the listeners of the HTTP benchmark's Switchboard
 * app (debug off) and: nothing more; `MetricsListener` (@switchboard/metrics); the same observed by
 * `OpenTelemetryMetrics` on the SDK (a reader that never exports: aggregation measured, not
 * export); the same instruments recorded with prom-client (bench/http/apps/prom-client-metrics.ts);
 * the access line alone (`AccessLogListener`, a logger that drops the line once built) and with
 * `MetricsListener`, which then shares the access line's clock readings (`request.startTiming()`,
 * `TerminateEvent.endTime`). One process, the setups' rounds interleaved so that the machine's load
 * falls on all alike; CPU time per request (process.cpuUsage), median over the rounds of each
 * setup's cost less its base's (the plain app, or the access line alone) in the same round. The whole-request figures over node:http are the in-process
 * bench's (`BENCH_INPROC_ONLY="debug off,metrics"`).
 * Run: `cd bench && node --import tsx metrics.bench.ts` (env: BENCH_METRICS_ROUNDS, default 31)
 */
import './built-packages.js';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { HeaderBag, HttpKernel, Request } from '@switchboard/http-kernel';
import { MetricsListener, ServerMetrics } from '@switchboard/metrics';
import { OpenTelemetryMetrics } from '@switchboard/opentelemetry';
import { AccessLogListener } from '@switchboard/operations';
import { HELLO_PATH, MISSING_PATH } from './http/contract.js';
import { PromClientMetricsListener } from './http/apps/prom-client-metrics.js';
import { droppingLogger, HeldReader, helloDispatcher } from './http/apps/switchboard.js';
import { machineLine, median, reportJson } from './report.js';

const ROUNDS = Number(process.env.BENCH_METRICS_ROUNDS ?? 31);
const PER_ROUND = 5_000;
const SETUPS = [
  'no metrics',
  'an empty kernel.terminate listener',
  '@switchboard/metrics',
  '+ OpenTelemetryMetrics (SDK)',
  'prom-client, same instruments',
  'access line',
  'access line + @switchboard/metrics',
] as const;
type Setup = (typeof SETUPS)[number];
/** What each setup's added cost is measured against. */
const BASES: Record<Setup, Setup> = {
  'no metrics': 'no metrics',
  'an empty kernel.terminate listener': 'no metrics',
  '@switchboard/metrics': 'no metrics',
  '+ OpenTelemetryMetrics (SDK)': 'no metrics',
  'prom-client, same instruments': 'no metrics',
  'access line': 'no metrics',
  'access line + @switchboard/metrics': 'access line',
};

function kernelFor(setup: Setup): HttpKernel {
  const dispatcher = helloDispatcher();
  // What any listener of kernel.terminate costs: the event and its dispatch, which the kernel skips when none listens.
  if (setup === 'an empty kernel.terminate listener') dispatcher.on('kernel.terminate', () => undefined);
  if (setup.startsWith('access line')) dispatcher.addSubscriber(new AccessLogListener({ logger: droppingLogger }));
  if (setup === 'prom-client, same instruments') dispatcher.addSubscriber(new PromClientMetricsListener());
  else if (setup.includes('@switchboard/metrics') || setup.includes('OpenTelemetryMetrics')) {
    const metrics = new ServerMetrics();
    dispatcher.addSubscriber(new MetricsListener(metrics));
    if (setup === '+ OpenTelemetryMetrics (SDK)')
      new OpenTelemetryMetrics({ meterProvider: new MeterProvider({ readers: [new HeldReader()] }) }).observe(metrics);
  }
  return new HttpKernel({ dispatcher });
}

const headers = ['Host', '127.0.0.1:8080', 'Accept', 'application/json'];
const requestFor = (path: string): Request =>
  new Request({ method: 'GET', scheme: 'http', host: '127.0.0.1', port: 8080, path, headers: HeaderBag.fromRawList(headers) });

/** One request through the kernel, its body read as the adapter writes it, then its termination. */
function once(kernel: HttpKernel, path: string, status: number): void {
  const request = requestFor(path);
  const answer = kernel.handleEagerly(request);
  if (answer instanceof Promise || answer.status !== status) throw new Error(`${path} did not answer ${status} at once`);
  void answer.body;
  const terminated = kernel.terminateEagerly(request, answer);
  if (terminated instanceof Promise) throw new Error('kernel.terminate waited');
}

function cpuNs(kernel: HttpKernel, path: string, status: number): number {
  const started = process.cpuUsage();
  for (let i = 0; i < PER_ROUND; i++) once(kernel, path, status);
  const used = process.cpuUsage(started);
  return ((used.user + used.system) * 1000) / PER_ROUND;
}

const kernels = new Map(SETUPS.map((setup) => [setup, kernelFor(setup)]));
const cases = [
  { name: 'hello', path: HELLO_PATH, status: 200 },
  { name: '404', path: MISSING_PATH, status: 404 },
] as const;
for (const kernel of kernels.values()) for (const c of cases) for (let i = 0; i < 30_000; i++) once(kernel, c.path, c.status);

const costs = new Map<string, number[]>();
for (let round = 0; round < ROUNDS; round++) {
  for (let i = 0; i < SETUPS.length; i++) {
    const setup = SETUPS[(i + round) % SETUPS.length]!;
    for (const c of cases) {
      const key = `${setup} ${c.name}`;
      costs.set(key, [...(costs.get(key) ?? []), cpuNs(kernels.get(setup)!, c.path, c.status)]);
    }
  }
}

const rows = SETUPS.map((setup) => {
  const row: Record<string, number | string> = { setup };
  for (const c of cases) {
    const own = costs.get(`${setup} ${c.name}`)!;
    const base = costs.get(`${BASES[setup]} ${c.name}`)!;
    row[`${c.name}Ns`] = median(own);
    row[`${c.name}AddedNs`] = median(own.map((cost, round) => cost - base[round]!));
  }
  return row;
});
/** CPU per `performance.now()` call in this process: the reading `request.startTiming()` and `TerminateEvent.endTime` take. */
function clockReadNs(): number {
  let sum = 0;
  const started = process.cpuUsage();
  for (let i = 0; i < 1_000_000; i++) sum += performance.now();
  const used = process.cpuUsage(started);
  if (sum < 0) throw new Error('unreachable');
  return ((used.user + used.system) * 1000) / 1_000_000;
}
const clockNs = median(Array.from({ length: 5 }, clockReadNs));

console.log(`\n## Metrics: cost per request, kernel only (CPU time, ${ROUNDS} interleaved rounds of ${PER_ROUND})\n${machineLine()}\n`);
console.log('| setup | against | hello ns | added | 404 ns | added |\n|---|---|---:|---:|---:|---:|');
for (const row of rows) {
  console.log(
    `| ${row.setup} | ${BASES[row.setup as Setup]} | ${(row.helloNs as number).toFixed(0)} | ${(row.helloAddedNs as number).toFixed(0)} | ${(row['404Ns'] as number).toFixed(0)} | ${(row['404AddedNs'] as number).toFixed(0)} |`,
  );
}
console.log(`\nOne performance.now() call: ${clockNs.toFixed(0)} ns of CPU (median of 5 × 1,000,000).`);
reportJson('metrics', [...rows, { setup: 'performance.now()', ns: clockNs }]);
