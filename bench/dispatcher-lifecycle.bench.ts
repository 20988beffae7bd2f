/**
 * The kernel's own share of a request, without HTTP: `HttpKernel.handleEagerly` for the JSON hello
 * and for a 404 (router miss → error sub-request → problem+json), with the listeners of the HTTP
 * benchmark's Switchboard app in debug off (router, error listener, default cache-control). For
 * comparing two builds of the kernel on the same machine (docs/decisions.md D4): run it against
 * each, alternately. Rounds of 10,000 requests; the fastest round and the median are reported.
 * Run: `cd bench && node --import tsx dispatcher-lifecycle.bench.ts` (env: BENCH_LIFECYCLE_ROUNDS, default 25).
 * `BENCH_LIFECYCLE_WITH` adds listeners of @switchboard/operations, to measure their cost per
 * request (run it alternately with and without): `pressure`, the pressure listener not shedding (a
 * monitor without a timer); `request-id+access-log`, request ids and the access line (to a logger
 * that keeps INFO and drops the record), each request then terminated as the node adapter does.
 */
import './built-packages.js';
import { ErrorListener } from '@switchboard/error-controller';
import {
  DefaultCacheControlListener,
  defineController,
  HeaderBag,
  EventDispatcher,
  HttpKernel,
  JsonResponse,
  nullLogger,
  Request,
  type KernelEventMap,
} from '@switchboard/http-kernel';
import { AccessLogListener, PressureListener, PressureMonitor, RequestIdListener } from '@switchboard/operations';
import { RouteCollection, Router, RouterListener } from '@switchboard/router';
import { droppingLogger } from './http/apps/switchboard.js';
import { HELLO_BODY, HELLO_PATH, MISSING_PATH } from './http/contract.js';
import { machineLine, reportJson } from './report.js';

const ROUNDS = Number(process.env.BENCH_LIFECYCLE_ROUNDS ?? 25);
const PER_ROUND = 10_000;

const dispatcher = new EventDispatcher<KernelEventMap>();
const routes = new RouteCollection().add('hello', HELLO_PATH, {
  methods: ['GET'],
  controller: defineController([], () => new JsonResponse(HELLO_BODY), 'hello'),
});
dispatcher.addSubscriber(new RouterListener(new Router(routes)));
dispatcher.addSubscriber(new ErrorListener({ debug: false, logger: nullLogger }));
dispatcher.addSubscriber(new DefaultCacheControlListener());
const WITH = process.env.BENCH_LIFECYCLE_WITH || undefined;
if (WITH === 'pressure') {
  dispatcher.addSubscriber(new PressureListener({ monitor: new PressureMonitor({ maxEventLoopDelayMs: 60_000 }) }));
} else if (WITH === 'request-id+access-log') {
  dispatcher.addSubscriber(new RequestIdListener({ logger: droppingLogger }));
  dispatcher.addSubscriber(new AccessLogListener({ logger: droppingLogger }));
} else if (WITH !== undefined) {
  throw new Error(`BENCH_LIFECYCLE_WITH: pressure or request-id+access-log, not ${WITH}`);
}
const kernel = new HttpKernel({ dispatcher });
const terminates = dispatcher.hasListeners('kernel.terminate');

const RAW_HEADERS = ['Host', '127.0.0.1:8080', 'Accept', 'application/json'];

/** A request as the node adapter builds one. */
function requestFor(path: string): Request {
  return new Request({ method: 'GET', scheme: 'http', host: '127.0.0.1', port: 8080, path, headers: HeaderBag.fromRawList(RAW_HEADERS) });
}

function handle(path: string, count: number): void {
  for (let i = 0; i < count; i++) {
    const request = requestFor(path);
    const response = kernel.handleEagerly(request);
    if (response instanceof Promise) throw new Error(`${path} waited: this benchmark measures the synchronous path`);
    if (terminates) kernel.terminateEagerly(request, response);
  }
}

const rows = [];
for (const [name, path, status] of [
  ['hello', HELLO_PATH, 200],
  ['404', MISSING_PATH, 404],
] as const) {
  const answer = kernel.handleEagerly(requestFor(path));
  if (answer instanceof Promise || answer.status !== status) throw new Error(`${path} did not answer ${status} at once`);
  handle(path, 100_000);
  const perRequest: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = process.hrtime.bigint();
    handle(path, PER_ROUND);
    perRequest.push(Number(process.hrtime.bigint() - started) / PER_ROUND);
  }
  perRequest.sort((a, b) => a - b);
  rows.push({ name, fastestNs: perRequest[0]!, medianNs: perRequest[ROUNDS >> 1]! });
}

console.log(
  `\n## Kernel lifecycle without HTTP (${ROUNDS} rounds of ${PER_ROUND}${WITH === undefined ? '' : `, with ${WITH}`})\n${machineLine()}\n`,
);
console.log('| request | fastest round, ns/request | median round, ns/request |\n|---|---:|---:|');
for (const row of rows) console.log(`| ${row.name} | ${row.fastestNs.toFixed(0)} | ${row.medianNs.toFixed(0)} |`);
reportJson(WITH === undefined ? 'dispatcher-lifecycle' : `dispatcher-lifecycle-${WITH}`, rows);
