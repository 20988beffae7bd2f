/**
 * How redaction grows with its input, reported as ratios (no time is asserted anywhere):
 * - `redactCredentials` over one hostile text (`Bearer+` repeated, refused or hidden at its end)
 *   against the same characters in 32 pieces: linear work gives about 1×, work growing with the
 *   square of the length about 32×;
 * - building a debug profile (collect, redact, serialise) for a request with 2,000 and with 8,000
 *   secret-named query values (`token=…`): linear work gives about 4×, quadratic about 16×.
 * Each side is timed at its fastest of seven runs taken in turn, so a busy phase of the machine
 * touches both alike.
 * Run: `cd bench && node --import tsx redaction-scaling.bench.ts`
 */
import './built-packages.js';
import { EventDispatcher, HttpKernel, JsonResponse, nullLogger, Request, type KernelEventMap } from '@switchboard/http-kernel';
import { redactCredentials } from '@switchboard/http-kernel/redaction';
import { ErrorListener } from '@switchboard/error-controller';
import { RouteCollection, Router, RouterListener } from '@switchboard/router';
import { Profiler, registerProfiler } from '@switchboard/profiler';

const ROUNDS = 7;

async function fastest(work: () => unknown): Promise<number> {
  let least = Number.POSITIVE_INFINITY;
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    await work();
    least = Math.min(least, performance.now() - started);
  }
  return least;
}

const hostile = (length: number): string => `/x?a=${'Bearer+'.repeat(Math.floor(length / 7))}=a`;
const rows: { case: string; small: string; large: string; ratio: string; linear: string; quadratic: string }[] = [];

for (const [name, length] of [
  ['64 KiB (hidden at the cap)', 64 * 1024],
  ['8,000 characters (refused at its end)', 8000],
] as const) {
  const whole = hostile(length);
  const pieces = Array.from({ length: 32 }, () => hostile(length / 32));
  const wholeMs = await fastest(() => redactCredentials(whole));
  const piecesMs = await fastest(() => pieces.forEach((text) => redactCredentials(text)));
  rows.push({
    case: `redactCredentials, ${name}: 32 pieces → one text`,
    small: `${piecesMs.toFixed(3)} ms`,
    large: `${wholeMs.toFixed(3)} ms`,
    ratio: `${(wholeMs / piecesMs).toFixed(2)}×`,
    linear: '≈1×',
    quadratic: '≈32×',
  });
}

/** A debug-mode kernel whose profiles are built when `loadProfile` reads them. */
function profiledKernel() {
  const dispatcher = new EventDispatcher<KernelEventMap>();
  const profiler = new Profiler();
  const routes = new RouteCollection().add('hello', '/hello', { controller: () => new JsonResponse({ hello: 'world' }) });
  dispatcher.addSubscriber(new RouterListener(new Router(routes), { logger: nullLogger }));
  dispatcher.addSubscriber(new ErrorListener({ debug: true, logger: nullLogger }));
  const kernel = new HttpKernel({ dispatcher: registerProfiler(dispatcher, profiler), logger: nullLogger });
  return { kernel, profiler };
}

async function profileBuildMs(count: number): Promise<number> {
  const query = Array.from({ length: count }, (_, i) => `token=secret-value-${i}`).join('&');
  const { kernel, profiler } = profiledKernel();
  const tokens: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const request = Request.fromUrl(`http://localhost/hello?${query}`);
    const response = await kernel.handle(request);
    await kernel.terminate(request, response);
    tokens.push(response.headers.get('x-debug-token')!);
  }
  let least = Number.POSITIVE_INFINITY;
  for (const token of tokens) {
    const started = performance.now();
    const profile = await profiler.loadProfile(token);
    least = Math.min(least, performance.now() - started);
    if (JSON.stringify(profile?.toData()).includes('secret-value-')) throw new Error('a secret was left in the profile');
  }
  return least;
}

await profileBuildMs(1000); // warm-up
const two = await profileBuildMs(2000);
const eight = await profileBuildMs(8000);
rows.push({
  case: 'profile build: 2,000 → 8,000 secret-named values',
  small: `${two.toFixed(1)} ms`,
  large: `${eight.toFixed(1)} ms`,
  ratio: `${(eight / two).toFixed(2)}×`,
  linear: '≈4×',
  quadratic: '≈16×',
});

console.log('\nRedaction scaling (fastest of seven runs per side)');
console.table(rows);
