/**
 * The kernel's own share of a request, without HTTP: `HttpKernel.handleEagerly` for the JSON hello
 * and for a 404 (router miss → error sub-request → problem+json), with the listeners of the HTTP
 * benchmark's Switchboard app in debug off (router, error listener). For
 * comparing two builds of the kernel on the same machine (docs/decisions.md D4): run it against
 * each, alternately. Rounds of 10,000 requests; the fastest round and the median are reported.
 * Run: `cd bench && node --import tsx dispatcher-lifecycle.bench.ts` (env: BENCH_LIFECYCLE_ROUNDS, default 25).
 * `BENCH_LIFECYCLE_WITH` adds listeners of @switchboard/operations, to measure their cost per
 * request: `pressure`, the pressure listener not shedding (a
 * monitor without a timer); `request-id+access-log`, request ids and the access line (to a logger
 * that keeps INFO and drops the record), each request then terminated as the node adapter does.
 * The kernel without them then runs in turn with it, round by round: the added cost is the median
 * of the per-round differences, which a busy machine moves far less than either figure. Both then
 * read each response's body, as the adapter's writer does before `kernel.terminate`.
 */
import './built-packages.js';
import { HeaderBag, HttpKernel, Request } from '@switchboard/http-kernel';
import { AccessLogListener, PressureListener, PressureMonitor, RequestIdListener } from '@switchboard/operations';
import { droppingLogger, helloDispatcher } from './http/apps/switchboard.js';
import { HELLO_PATH, MISSING_PATH } from './http/contract.js';
import { machineLine, median, reportJson } from './report.js';

const ROUNDS = Number(process.env.BENCH_LIFECYCLE_ROUNDS ?? 25);
const PER_ROUND = 10_000;

const WITH = process.env.BENCH_LIFECYCLE_WITH || undefined;
if (WITH !== undefined && WITH !== 'pressure' && WITH !== 'request-id+access-log') {
  throw new Error(`BENCH_LIFECYCLE_WITH: pressure or request-id+access-log, not ${WITH}`);
}

/** The kernel of the HTTP benchmark's debug-off app, with the `BENCH_LIFECYCLE_WITH` listeners when `withAdded`. */
function kernelFor(withAdded: boolean): { kernel: HttpKernel; terminates: boolean } {
  const dispatcher = helloDispatcher();
  if (withAdded && WITH === 'pressure') {
    dispatcher.addSubscriber(new PressureListener({ monitor: new PressureMonitor({ maxEventLoopDelayMs: 60_000 }) }));
  } else if (withAdded && WITH === 'request-id+access-log') {
    dispatcher.addSubscriber(new RequestIdListener({ logger: droppingLogger }));
    dispatcher.addSubscriber(new AccessLogListener({ logger: droppingLogger }));
  }
  return { kernel: new HttpKernel({ dispatcher }), terminates: dispatcher.hasListeners('kernel.terminate') };
}
const measured = kernelFor(true);
// With added listeners, the plain kernel runs too, in turn with it: what they add, round by round.
const plain = WITH === undefined ? undefined : kernelFor(false);

const RAW_HEADERS = ['Host', '127.0.0.1:8080', 'Accept', 'application/json'];

/** A request as the node adapter builds one. */
function requestFor(path: string): Request {
  return new Request({ method: 'GET', scheme: 'http', host: '127.0.0.1', port: 8080, path, headers: HeaderBag.fromRawList(RAW_HEADERS) });
}

function handle({ kernel, terminates }: { kernel: HttpKernel; terminates: boolean }, path: string, count: number): void {
  for (let i = 0; i < count; i++) {
    const request = requestFor(path);
    const response = kernel.handleEagerly(request);
    if (response instanceof Promise) throw new Error(`${path} waited: this benchmark measures the synchronous path`);
    // The adapter's writer reads (serialises) the body before kernel.terminate; so must a paired run,
    // in both kernels, or the access line's byte count would be charged the serialisation.
    if (WITH !== undefined && response.body === null) throw new Error(`${path} answered without a body`);
    if (terminates) kernel.terminateEagerly(request, response);
  }
}

/** CPU ns per request of one round of `PER_ROUND`: time the machine gave other work is not counted. */
function round(subject: { kernel: HttpKernel; terminates: boolean }, path: string): number {
  const started = process.cpuUsage();
  handle(subject, path, PER_ROUND);
  const used = process.cpuUsage(started);
  return ((used.user + used.system) * 1000) / PER_ROUND;
}

const rows = [];
for (const [name, path, status] of [
  ['hello', HELLO_PATH, 200],
  ['404', MISSING_PATH, 404],
] as const) {
  for (const subject of plain === undefined ? [measured] : [measured, plain]) {
    const answer = subject.kernel.handleEagerly(requestFor(path));
    if (answer instanceof Promise || answer.status !== status) throw new Error(`${path} did not answer ${status} at once`);
    handle(subject, path, 100_000);
  }
  const perRequest: number[] = [];
  const added: number[] = [];
  for (let turn = 0; turn < ROUNDS; turn++) {
    if (plain === undefined) {
      perRequest.push(round(measured, path));
      continue;
    }
    // Which one goes first alternates, so neither always follows the other's garbage.
    const plainFirst = turn % 2 === 0;
    const before = plainFirst ? round(plain, path) : 0;
    const own = round(measured, path);
    const base = plainFirst ? before : round(plain, path);
    perRequest.push(own);
    added.push(own - base);
  }
  perRequest.sort((a, b) => a - b);
  rows.push({
    name,
    fastestNs: perRequest[0]!,
    medianNs: perRequest[ROUNDS >> 1]!,
    ...(added.length === 0 ? {} : { addedNs: median(added) }),
  });
}

console.log(
  `\n## Kernel lifecycle without HTTP (${ROUNDS} rounds of ${PER_ROUND}${WITH === undefined ? '' : `, with ${WITH}`})\n${machineLine()}\n`,
);
const addedColumn = WITH === undefined ? '' : ` added by ${WITH}, ns/request (median of per-round differences) |`;
console.log(
  `| request | fastest round, ns/request | median round, ns/request |${addedColumn}\n|---|---:|---:|${WITH === undefined ? '' : '---:|'}`,
);
for (const row of rows) {
  const addedCell = row.addedNs === undefined ? '' : ` ${row.addedNs.toFixed(0)} |`;
  console.log(`| ${row.name} | ${row.fastestNs.toFixed(0)} | ${row.medianNs.toFixed(0)} |${addedCell}`);
}
reportJson(WITH === undefined ? 'dispatcher-lifecycle' : `dispatcher-lifecycle-${WITH}`, rows);
