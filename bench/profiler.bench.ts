/**
 * Profiler overhead: the same debug-mode kernel (router, error listener, response defaults) with
 * and without the profiler, for a matched route (200) and an unmatched path (404 through the
 * error sub-request, two profiles). With the profiler each request also runs kernel.terminate,
 * where its recording is closed and saved, as an adapter does; a third profiler case also reads
 * each profile back (`loadProfile`), which builds it (collectors, redaction, JSON): the work a
 * page or a storage's writer pays when it asks for a profile. No Node framework has a request
 * profiler; the nearest peer instrumentation is Hono's `timing()` (Server-Timing) middleware, so
 * Hono with and without it is measured in the same run for the 200 case. All in process.
 * Run: `cd bench && node --import tsx profiler.bench.ts`
 */
import './built-packages.js';
import { Hono } from 'hono';
import { timing } from 'hono/timing';
import { Bench } from 'tinybench';
import {
  DisallowRobotsIndexingListener,
  EventDispatcher,
  HttpKernel,
  nullLogger,
  Request,
  Response,
  type KernelEventMap,
} from '@switchboard/http-kernel';
import { ErrorListener } from '@switchboard/error-controller';
import { RouteCollection, Router, RouterListener } from '@switchboard/router';
import { Profiler, ProfilerController, profilerRoutes, profilingLogger, registerProfiler, routerProfileLink } from '@switchboard/profiler';
import { printTable, reportJson } from './report.js';

function switchboard(withProfiler: boolean) {
  const dispatcher = new EventDispatcher<KernelEventMap>();
  const profiler = new Profiler();
  const logger = withProfiler ? profilingLogger(nullLogger, profiler) : nullLogger;
  const routes = new RouteCollection().add('hello', '/hello', {
    methods: 'GET',
    controller: () => new Response('hello', 200, { 'content-type': 'text/plain' }),
  });
  if (withProfiler) routes.mount('/_profiler', profilerRoutes(new ProfilerController(profiler)));
  const router = new Router(routes);
  const kernelDispatcher = withProfiler ? registerProfiler(dispatcher, profiler, { linkFor: routerProfileLink(router) }) : dispatcher;
  dispatcher.addSubscriber(new RouterListener(router, { logger }));
  dispatcher.addSubscriber(new ErrorListener({ debug: true, logger }));
  dispatcher.addSubscriber(new DisallowRobotsIndexingListener());
  const kernel = new HttpKernel({ dispatcher: kernelDispatcher, logger });
  return {
    profiler,
    async handle(request: Request) {
      const response = await kernel.handle(request);
      await kernel.terminate(request, response);
      return response;
    },
  };
}
const plain = switchboard(false);
const profiled = switchboard(true);

const hono = new Hono();
hono.get('/hello', (c) => c.text('hello'));
const honoTimed = new Hono();
honoTimed.use(timing());
honoTimed.get('/hello', (c) => c.text('hello'));

// JSON error bodies keep the error renderer's share small and equal on both sides.
const hello = () => Request.fromUrl('http://localhost/hello');
const missing = () => Request.fromUrl('http://localhost/robots.txt', { headers: { accept: 'application/json' } });

// Correctness first.
{
  const a = await plain.handle(hello());
  if (a.status !== 200 || a.body !== 'hello' || a.headers.has('x-debug-token')) throw new Error('switchboard without profiler wrong');
  const b = await profiled.handle(hello());
  const token = b.headers.get('x-debug-token');
  if (b.status !== 200 || token === undefined || (await profiled.profiler.loadProfile(token)) === null)
    throw new Error('switchboard with profiler wrong');
  const c = await profiled.handle(missing());
  const previous = c.headers.get('x-previous-debug-token');
  if (c.status !== 404 || previous === undefined || (await profiled.profiler.loadProfile(previous))?.childTokens.length !== 1)
    throw new Error('404 profiles wrong');
  const d = await hono.request('http://localhost/hello');
  const e = await honoTimed.request('http://localhost/hello');
  if ((await d.text()) !== 'hello' || (await e.text()) !== 'hello' || e.headers.get('server-timing') === null)
    throw new Error('hono wrong');
}

const BATCH = 50;
const time = Number(process.env.BENCH_TIME_MS ?? 2000);
const bench = new Bench({ time, warmup: true, warmupTime: 500 });
bench
  .add('switchboard 200, no profiler', async () => {
    for (let i = 0; i < BATCH; i++) await plain.handle(hello());
  })
  .add('switchboard 200, profiler (token, trace, recording saved at terminate)', async () => {
    for (let i = 0; i < BATCH; i++) await profiled.handle(hello());
  })
  .add('switchboard 200, profiler, each profile read back (built)', async () => {
    for (let i = 0; i < BATCH; i++) {
      const response = await profiled.handle(hello());
      await profiled.profiler.loadProfile(response.headers.get('x-debug-token')!);
    }
  })
  .add('switchboard 404, no profiler', async () => {
    for (let i = 0; i < BATCH; i++) await plain.handle(missing());
  })
  .add('switchboard 404, profiler (two profiles: main + error sub-request)', async () => {
    for (let i = 0; i < BATCH; i++) await profiled.handle(missing());
  })
  .add('hono 200, no middleware', async () => {
    for (let i = 0; i < BATCH; i++) await hono.request('http://localhost/hello');
  })
  .add('hono 200, timing() middleware', async () => {
    for (let i = 0; i < BATCH; i++) await honoTimed.request('http://localhost/hello');
  });

await bench.run();
const rows = printTable('Profiler overhead (debug mode)', bench, 'switchboard 200, no profiler', BATCH);
reportJson('profiler', rows);
