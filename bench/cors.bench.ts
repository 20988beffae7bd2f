/**
 * CORS benchmark: a preflight and an actual GET from an allowed origin, each answered in process
 * (no sockets) by the Switchboard kernel with `CorsListener` (preflight answered at kernel.request
 * 250; headers added at kernel.response 0) and by Hono with its `cors()` middleware configured to the
 * same anchored loopback rule. A Switchboard kernel without CORS shows what the step itself costs.
 * Checks every answer first.
 * Run: `cd bench && node --import tsx cors.bench.ts`
 */
import './built-packages.js';
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { Bench } from 'tinybench';
import { EventDispatcher, HttpKernel, JsonResponse, nullLogger, Request, type KernelEventMap } from '@switchboard/http-kernel';
import { CorsListener, LOOPBACK_ORIGIN } from '@switchboard/cors';
import { printTable, reportJson } from './report.js';

const ORIGIN = 'http://localhost:5173';
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const HEADERS = ['content-type', 'authorization'];

function switchboard(withCors: boolean): HttpKernel {
  const dispatcher = new EventDispatcher<KernelEventMap>();
  if (withCors) dispatcher.addSubscriber(new CorsListener({ allowMethods: METHODS, allowHeaders: HEADERS, maxAgeSeconds: 3600 }));
  const list = () => new JsonResponse([{ id: 1 }]);
  dispatcher.on(
    'kernel.request',
    (event) => {
      event.request.attributes.set('_controller', list);
    },
    32,
  );
  return new HttpKernel({ dispatcher, logger: nullLogger });
}
const withCors = switchboard(true);
const withoutCors = switchboard(false);

const hono = new Hono();
hono.use(
  '*',
  cors({
    origin: (origin) => (LOOPBACK_ORIGIN.test(origin) ? origin : null),
    allowMethods: METHODS,
    allowHeaders: HEADERS,
    maxAge: 3600,
  }),
);
hono.get('/api/items', (c) => c.json([{ id: 1 }]));

const preflightHeaders = { origin: ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' };
const sbPreflight = () => Request.fromUrl('http://127.0.0.1:8000/api/items', { method: 'OPTIONS', headers: preflightHeaders });
const sbGet = (headers: Record<string, string> = { origin: ORIGIN }) => Request.fromUrl('http://127.0.0.1:8000/api/items', { headers });
const honoPreflight = () => hono.request('http://127.0.0.1:8000/api/items', { method: 'OPTIONS', headers: preflightHeaders });
const honoGet = () => hono.request('http://127.0.0.1:8000/api/items', { headers: { origin: ORIGIN } });

// Correctness first: the allowed origin echoed on both, preflights successful, the same body.
{
  const a = await withCors.handle(sbPreflight());
  if (
    a.status !== 200 ||
    a.headers.get('access-control-allow-origin') !== ORIGIN ||
    !a.headers.get('access-control-allow-methods')?.includes('POST')
  )
    throw new Error('switchboard preflight wrong');
  const b = await withCors.handle(sbGet());
  if (b.status !== 200 || b.headers.get('access-control-allow-origin') !== ORIGIN || b.body !== '[{"id":1}]')
    throw new Error('switchboard GET wrong');
  const c = await honoPreflight();
  if (
    c.status !== 204 ||
    c.headers.get('access-control-allow-origin') !== ORIGIN ||
    !c.headers.get('access-control-allow-methods')?.includes('POST')
  )
    throw new Error('hono preflight wrong');
  const d = await honoGet();
  if (d.status !== 200 || d.headers.get('access-control-allow-origin') !== ORIGIN || (await d.text()) !== '[{"id":1}]')
    throw new Error('hono GET wrong');
  const e = await withCors.handle(sbGet({ origin: 'http://localhost.evil.com' }));
  if (e.headers.has('access-control-allow-origin')) throw new Error('switchboard let a lookalike in');
  const f = await hono.request('http://127.0.0.1:8000/api/items', { headers: { origin: 'http://localhost.evil.com' } });
  if (f.headers.get('access-control-allow-origin') !== null) throw new Error('hono let a lookalike in');
  const g = await withoutCors.handle(sbGet());
  if (g.status !== 200 || g.headers.has('access-control-allow-origin')) throw new Error('switchboard without CORS wrong');
}

const BATCH = 200;
const bench = new Bench({ time: 2000, warmup: true, warmupTime: 500 });
bench
  .add('switchboard preflight (CorsListener at kernel.request 250)', async () => {
    for (let i = 0; i < BATCH; i++) await withCors.handle(sbPreflight());
  })
  .add('hono preflight (cors() middleware)', async () => {
    for (let i = 0; i < BATCH; i++) await honoPreflight();
  })
  .add('switchboard GET, allowed origin, with CorsListener', async () => {
    for (let i = 0; i < BATCH; i++) await withCors.handle(sbGet());
  })
  .add('switchboard GET, same request, no CORS listener', async () => {
    for (let i = 0; i < BATCH; i++) await withoutCors.handle(sbGet());
  })
  .add('hono GET, allowed origin (cors() middleware)', async () => {
    for (let i = 0; i < BATCH; i++) await honoGet();
  });
await bench.run();
const rows = printTable('CORS: preflight and allowed-origin GET, in process', bench, 'hono preflight (cors() middleware)', BATCH);
reportJson('cors', rows);
