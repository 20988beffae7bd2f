/**
 * Test clients in process: `GET /hello` answered `{"hello":"world"}` through
 * `@switchboard/testing`'s client (the node adapter's request factory, the kernel with router,
 * error listener and default Cache-Control, the answer read as text), through Fastify's
 * `inject()` (light-my-request) and Hono's `app.request()` on the same route, and through the
 * Switchboard client's `socket()` mode (the node adapter's `serve()` on 127.0.0.1, node's HTTP
 * client over kept-alive connections): the round trip a socket costs. Costs are relative to the
 * in-process client; targets: at most the faster peer's cost, and the socket at least 5×.
 * Run: `cd bench && node --import tsx test-client.bench.ts`
 */
import './built-packages.js';
import { ErrorListener } from '@switchboard/error-controller';
import { EventDispatcher, HttpKernel, JsonResponse, nullLogger, type KernelEventMap } from '@switchboard/http-kernel';
import { RouteCollection, Router, RouterListener } from '@switchboard/router';
import { createTestClient } from '@switchboard/testing';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { Bench } from 'tinybench';
import { HELLO_BODY, HELLO_PATH } from './http/contract.js';
import { printTable, reportJson } from './report.js';

function switchboardKernel(): HttpKernel {
  const dispatcher = new EventDispatcher<KernelEventMap>();
  const routes = new RouteCollection().add('hello', HELLO_PATH, { methods: ['GET'], controller: () => new JsonResponse(HELLO_BODY) });
  dispatcher.addSubscriber(new RouterListener(new Router(routes)));
  dispatcher.addSubscriber(new ErrorListener({ debug: false, logger: nullLogger }));
  return new HttpKernel({ dispatcher });
}

const client = createTestClient(switchboardKernel());
const socketClient = await createTestClient(switchboardKernel()).socket();

const fastify = Fastify({ logger: false });
fastify.get(HELLO_PATH, async () => HELLO_BODY);
await fastify.ready();

const hono = new Hono();
hono.get(HELLO_PATH, (c) => c.json(HELLO_BODY));

const expected = JSON.stringify(HELLO_BODY);
const contenders: Record<string, () => Promise<string>> = {
  '@switchboard/testing, in process': async () => (await client.get(HELLO_PATH)).text(),
  'fastify.inject() (light-my-request)': async () => (await fastify.inject({ method: 'GET', url: HELLO_PATH })).body,
  "Hono's app.request()": async () => await (await hono.request(HELLO_PATH)).text(),
  '@switchboard/testing, socket() through serve()': async () => (await socketClient.get(HELLO_PATH)).text(),
};
for (const [name, send] of Object.entries(contenders)) {
  const body = await send();
  if (body !== expected) throw new Error(`${name} answered ${body}`);
}

const BATCH = 50;
const bench = new Bench({ time: Number(process.env.BENCH_TIME_MS ?? 3000), warmup: true, warmupTime: 1000 });
for (const [name, send] of Object.entries(contenders)) {
  bench.add(name, async () => {
    for (let i = 0; i < BATCH; i++) await send();
  });
}
await bench.run();
for (const task of bench.tasks) if (task.result && 'error' in task.result && task.result.error) console.error(task.name, task.result.error);
const rows = printTable('Test clients: GET /hello in process, and over a socket', bench, '@switchboard/testing, in process', BATCH);
reportJson('test-client', rows);
await socketClient.close();
await fastify.close();
