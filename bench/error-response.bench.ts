/**
 * Error-response benchmark: a request whose `kernel.request` step throws a 404, answered through
 * the error listener's sub-request and the HTML renderer (non-debug and debug), against the
 * default handling of a thrown 404 in Hono (`app.request`) and Fastify (`inject`), in one run.
 * All contenders run in process, without sockets. Checks every answer first.
 * Run: `cd bench && node --import tsx error-response.bench.ts`
 */
import './built-packages.js';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { Bench } from 'tinybench';
import {
  DisallowRobotsIndexingListener,
  EventDispatcher,
  HttpKernel,
  NotFoundHttpError,
  nullLogger,
  Request,
  type KernelEventMap,
} from '@switchboard/http-kernel';
import { ErrorListener } from '@switchboard/error-controller';
import { printTable, reportJson } from './report.js';

const MESSAGE = 'No route found for "GET http://localhost/robots.txt"';

function switchboard(debug: boolean): HttpKernel {
  const dispatcher = new EventDispatcher<KernelEventMap>();
  dispatcher.on(
    'kernel.request',
    (event) => {
      if (!event.request.attributes.has('_controller')) throw new NotFoundHttpError(MESSAGE);
    },
    32,
  );
  dispatcher.addSubscriber(new ErrorListener({ debug, logger: nullLogger }));
  dispatcher.addSubscriber(new DisallowRobotsIndexingListener());
  return new HttpKernel({ dispatcher, logger: nullLogger });
}
const plain = switchboard(false);
const debug = switchboard(true);

const hono = new Hono();
hono.use(async () => {
  throw new HTTPException(404, { message: MESSAGE });
});

const fastify = Fastify({ logger: false });
fastify.addHook('onRequest', async () => {
  throw Object.assign(new Error(MESSAGE), { statusCode: 404 });
});
fastify.get('/robots.txt', async () => 'never');
await fastify.ready();

const request = () => Request.fromUrl('http://localhost/robots.txt', { headers: { accept: 'text/html' } });

// Correctness first: a 404 whose body carries what each contender promises.
{
  const a = await plain.handle(request());
  if (a.status !== 404 || !String(a.body).includes('404 Not Found') || a.headers.get('vary') !== 'Accept')
    throw new Error('switchboard (non-debug) wrong');
  const b = await debug.handle(request());
  if (b.status !== 404 || !String(b.body).includes('No route found for &quot;GET') || b.headers.get('x-debug-exception') === undefined)
    throw new Error('switchboard (debug) wrong');
  const c = await hono.request('http://localhost/robots.txt');
  if (c.status !== 404 || (await c.text()) !== MESSAGE) throw new Error('hono wrong');
  const d = await fastify.inject({ method: 'GET', url: '/robots.txt' });
  if (d.statusCode !== 404 || (JSON.parse(d.body) as { message: string }).message !== MESSAGE) throw new Error('fastify wrong');
}

const BATCH = 50;
const bench = new Bench({ time: 2000, warmup: true, warmupTime: 500 });
bench
  .add('switchboard 404 via error sub-request (non-debug HTML)', async () => {
    for (let i = 0; i < BATCH; i++) await plain.handle(request());
  })
  .add('switchboard 404 via error sub-request (debug HTML page, source excerpts)', async () => {
    for (let i = 0; i < BATCH; i++) await debug.handle(request());
  })
  .add('hono thrown HTTPException (default handler, text)', async () => {
    for (let i = 0; i < BATCH; i++) await hono.request('http://localhost/robots.txt');
  })
  .add('fastify thrown 404 in onRequest (default handler, JSON, inject)', async () => {
    for (let i = 0; i < BATCH; i++) await fastify.inject({ method: 'GET', url: '/robots.txt' });
  });

await bench.run();
const rows = printTable('Error response: thrown 404 → error page', bench, 'hono thrown HTTPException (default handler, text)', BATCH);
reportJson('error-response', rows);
await fastify.close();
