/**
 * Payload benchmark: a POST with a small JSON body validated by the same zod schema, accepted
 * (201) and refused (422), in Switchboard (payload mapping at kernel.controller_arguments, the
 * 422 rendered as problem+json by the error sub-request), Hono (`validator('json')` + zod,
 * `app.request`) and Fastify (its JSON parser + zod in the handler, `inject`). All in process,
 * without sockets; every answer is checked first.
 * Run: `cd bench && node --import tsx payload.bench.ts`
 */
import './built-packages.js';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { validator } from 'hono/validator';
import { Bench } from 'tinybench';
import { z } from 'zod';
import {
  ArgumentResolver,
  EventDispatcher,
  HttpKernel,
  JsonResponse,
  nullLogger,
  Request,
  type KernelEventMap,
} from '@switchboard/http-kernel';
import { ErrorListener } from '@switchboard/error-controller';
import { defineTypedController, mapPayload, RequestPayloadValueResolver } from '@switchboard/payload';
import { printTable, reportJson } from './report.js';

const NewItem = z.object({
  name: z.string().min(1),
  price: z.number().positive(),
  tags: z.array(z.string()).max(10).default([]),
});
const VALID = JSON.stringify({ name: 'lamp', price: 12.5, tags: ['desk', 'light'] });
const INVALID = JSON.stringify({ name: '', price: -1, tags: ['desk', 3] });
const violationsOf = (error: z.ZodError) => error.issues.map((issue) => ({ path: `/${issue.path.join('/')}`, message: issue.message }));

// Switchboard
const payload = new RequestPayloadValueResolver();
const dispatcher = new EventDispatcher<KernelEventMap>();
const createItem = defineTypedController(
  [mapPayload('item', { from: 'json', schema: NewItem })],
  (item) => new JsonResponse({ created: item.name }, 201),
);
dispatcher.on(
  'kernel.request',
  (event) => {
    if (!event.request.attributes.has('_controller')) event.request.attributes.set('_controller', createItem);
  },
  32,
);
dispatcher.addSubscriber(payload);
dispatcher.addSubscriber(new ErrorListener({ debug: false, logger: nullLogger }));
const kernel = new HttpKernel({ dispatcher, argumentResolver: new ArgumentResolver([payload]), logger: nullLogger });
const switchboardRequest = (json: string): Request => {
  const bytes = Buffer.from(json);
  return Request.fromUrl('http://localhost/items', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': String(bytes.byteLength), accept: 'application/json' },
    body: {
      bytes: async () => bytes,
      text: async () => json,
      stream: async function* () {
        yield bytes;
      },
    },
  });
};

// Hono
const hono = new Hono();
hono.post(
  '/items',
  validator('json', (value, c) => {
    const parsed = NewItem.safeParse(value);
    return parsed.success ? parsed.data : c.json({ status: 422, violations: violationsOf(parsed.error) }, 422);
  }),
  (c) => c.json({ created: c.req.valid('json').name }, 201),
);
const honoPost = (json: string) =>
  hono.request('http://localhost/items', { method: 'POST', headers: { 'content-type': 'application/json' }, body: json });

// Fastify
const fastify = Fastify({ logger: false });
fastify.post('/items', async (request, reply) => {
  const parsed = NewItem.safeParse(request.body);
  if (!parsed.success) return reply.code(422).send({ status: 422, violations: violationsOf(parsed.error) });
  return reply.code(201).send({ created: parsed.data.name });
});
await fastify.ready();
const fastifyPost = (json: string) =>
  fastify.inject({ method: 'POST', url: '/items', headers: { 'content-type': 'application/json' }, payload: json });

// Correctness first.
{
  const a = await kernel.handle(switchboardRequest(VALID));
  if (a.status !== 201 || a.body !== '{"created":"lamp"}') throw new Error('switchboard valid wrong');
  const b = await kernel.handle(switchboardRequest(INVALID));
  const problem = JSON.parse(String(b.body)) as { violations: Array<{ path: string }> };
  if (b.status !== 422 || b.headers.get('content-type') !== 'application/problem+json' || problem.violations.length !== 3) {
    throw new Error('switchboard invalid wrong');
  }
  const c = await honoPost(VALID);
  if (c.status !== 201 || (await c.text()) !== '{"created":"lamp"}') throw new Error('hono valid wrong');
  const d = await honoPost(INVALID);
  if (d.status !== 422 || ((await d.json()) as { violations: unknown[] }).violations.length !== 3) throw new Error('hono invalid wrong');
  const e = await fastifyPost(VALID);
  if (e.statusCode !== 201 || e.body !== '{"created":"lamp"}') throw new Error('fastify valid wrong');
  const f = await fastifyPost(INVALID);
  if (f.statusCode !== 422 || (JSON.parse(f.body) as { violations: unknown[] }).violations.length !== 3)
    throw new Error('fastify invalid wrong');
}

const BATCH = 50;
async function measure(title: string, json: string): Promise<void> {
  const bench = new Bench({ time: 2000, warmup: true, warmupTime: 500 });
  bench
    .add('switchboard payload mapping (zod)', async () => {
      for (let i = 0; i < BATCH; i++) await kernel.handle(switchboardRequest(json));
    })
    .add('hono validator("json") + zod, app.request', async () => {
      for (let i = 0; i < BATCH; i++) await honoPost(json);
    })
    .add('fastify JSON parser + zod in handler, inject', async () => {
      for (let i = 0; i < BATCH; i++) await fastifyPost(json);
    });
  await bench.run();
  reportJson(`payload ${title}`, printTable(`Payload: ${title}`, bench, 'hono validator("json") + zod, app.request', BATCH));
}

await measure('valid JSON body → 201', VALID);
await measure('invalid JSON body → 422 with violations', INVALID);
await fastify.close();
