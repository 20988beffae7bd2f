/**
 * Rate limit benchmark.
 * 1. CPU per request added by an allowed check of the per-client limiter (memory store) on the hello
 *    route, in process: a Switchboard kernel with `ClientRateLimitListener` vs the same kernel
 *    without it, and Fastify with `@fastify/rate-limit` (its default in-memory store) vs Fastify
 *    without it (`inject`, no sockets). CPU time (`process.cpuUsage`) over rounds that alternate the
 *    contenders, median of the rounds: steadier than wall time on a shared machine.
 * 2. Latency added by the Redis store: the same kernel with the limiter on a `RedisStore` (a private
 *    redis-server on 127.0.0.1) vs on the memory store, one request at a time, p50 and p99.
 * Checks every answer first. Run: `cd bench && node --import tsx rate-limit.bench.ts`
 */
import './built-packages.js';
import rateLimitPlugin from '@fastify/rate-limit';
import Fastify from 'fastify';
import { EventDispatcher, HttpKernel, nullLogger, Request, Response, type KernelEventMap } from '@switchboard/http-kernel';
import { ClientRateLimitListener, MemoryStore, RateLimiter, type RateLimitStore } from '@switchboard/rate-limit';
import { RedisStore } from '@switchboard/rate-limit/redis';
import { RedisServer } from '../test/kit/services/redis-server.js';
import { machineLine, median, reportJson } from './report.js';

const HOUR = 3_600_000;
/** Never reached: every measured request is an allowed one. */
const HUGE = 1_000_000_000_000;

function switchboard(store: RateLimitStore | null): HttpKernel {
  const dispatcher = new EventDispatcher<KernelEventMap>();
  if (store !== null) {
    const limiter = new RateLimiter({ id: 'client', policy: 'sliding_window', limit: HUGE, intervalMs: HOUR, store });
    dispatcher.addSubscriber(new ClientRateLimitListener({ limiter }));
  }
  const hello = () => new Response('Hello World!');
  dispatcher.on('kernel.request', (event) => void event.request.attributes.set('_controller', hello), 32);
  return new HttpKernel({ dispatcher, logger: nullLogger });
}

async function fastify(limited: boolean) {
  const app = Fastify({ logger: false });
  if (limited) await app.register(rateLimitPlugin, { max: HUGE, timeWindow: HOUR });
  app.get('/hello', async () => 'Hello World!');
  await app.ready();
  return app;
}

const plain = switchboard(null);
const limited = switchboard(new MemoryStore());
const fastifyPlain = await fastify(false);
const fastifyLimited = await fastify(true);
const request = () => Request.fromUrl('http://127.0.0.1:8000/hello', { clientIp: '203.0.113.9' });
const inject = { method: 'GET' as const, url: '/hello', remoteAddress: '203.0.113.9' };

// Correctness first: allowed, with the rate limit fields where a limiter runs.
{
  const a = await limited.handle(request());
  if (a.status !== 200 || a.headers.get('ratelimit') === undefined) throw new Error('switchboard limited wrong');
  const b = await plain.handle(request());
  if (b.status !== 200 || b.headers.has('ratelimit')) throw new Error('switchboard plain wrong');
  const c = await fastifyLimited.inject(inject);
  if (c.statusCode !== 200 || c.headers['x-ratelimit-limit'] === undefined) throw new Error('fastify limited wrong');
  const d = await fastifyPlain.inject(inject);
  if (d.statusCode !== 200 || d.headers['x-ratelimit-limit'] !== undefined) throw new Error('fastify plain wrong');
}

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const SWITCHBOARD_BATCH = 20_000;
const FASTIFY_BATCH = 4_000;

/** CPU microseconds per request of `batch` requests, one after the other. */
async function cpuPerRequest(batch: number, send: () => Promise<unknown>): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < batch; i++) await send();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / batch;
}

const contenders: Array<[string, number, () => Promise<unknown>]> = [
  ['switchboard hello', SWITCHBOARD_BATCH, () => plain.handle(request())],
  ['switchboard hello + ClientRateLimitListener (memory)', SWITCHBOARD_BATCH, () => limited.handle(request())],
  ['fastify hello (inject)', FASTIFY_BATCH, () => fastifyPlain.inject(inject)],
  ['fastify hello + @fastify/rate-limit (inject)', FASTIFY_BATCH, () => fastifyLimited.inject(inject)],
];
const samples = new Map<string, number[]>(contenders.map(([name]) => [name, []]));
for (const [, batch, send] of contenders) await cpuPerRequest(batch, send); // warm-up
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, batch, send] of contenders) samples.get(name)!.push(await cpuPerRequest(batch, send));
}
const cpu = Object.fromEntries([...samples].map(([name, values]) => [name, median(values)]));

console.log(`\n## Rate limit: CPU per allowed request, in process (median of ${ROUNDS} rounds)\n${machineLine()}\n`);
console.log('| contender | CPU µs/request | added by the limiter | ratio |\n|---|---:|---:|---:|');
const pairs: Array<[string, string]> = [
  ['switchboard hello', 'switchboard hello + ClientRateLimitListener (memory)'],
  ['fastify hello (inject)', 'fastify hello + @fastify/rate-limit (inject)'],
];
const rows = [];
for (const [base, withLimit] of pairs) {
  const added = cpu[withLimit]! - cpu[base]!;
  console.log(`| ${base} | ${cpu[base]!.toFixed(3)} | | |`);
  console.log(`| ${withLimit} | ${cpu[withLimit]!.toFixed(3)} | ${added.toFixed(3)} µs | ${(cpu[withLimit]! / cpu[base]!).toFixed(2)}× |`);
  rows.push({ base, withLimit, baseCpuUs: cpu[base], limitedCpuUs: cpu[withLimit], addedCpuUs: added });
}

// 2. The Redis store's added latency.
const redis = await RedisServer.start();
const redisStore = new RedisStore({ url: redis.url, commandTimeoutMs: 2_000 });
if (!(await redisStore.waitUntilAvailable(5_000))) throw new Error('redis did not answer');
const onRedis = switchboard(redisStore);
{
  const answer = await onRedis.handle(request());
  if (answer.status !== 200 || !String(answer.headers.get('ratelimit')).startsWith('"client";r='))
    throw new Error('switchboard on Redis wrong');
}
const LATENCY_REQUESTS = Number(process.env.BENCH_LATENCY_REQUESTS ?? 5_000);
async function latencies(kernel: HttpKernel): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < LATENCY_REQUESTS; i++) {
    const start = performance.now();
    await kernel.handle(request());
    times.push((performance.now() - start) * 1000);
  }
  return times.sort((a, b) => a - b);
}
await latencies(onRedis); // warm-up (and the script loaded into Redis)
const memoryTimes = await latencies(limited);
const redisTimes = await latencies(onRedis);
const percentile = (times: number[], p: number): number => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))]!;
console.log(`\n## Rate limit: latency of one request, memory vs Redis store (${LATENCY_REQUESTS} sequential requests)\n`);
console.log('| store | p50 µs | p99 µs |\n|---|---:|---:|');
console.log(`| memory | ${percentile(memoryTimes, 50).toFixed(1)} | ${percentile(memoryTimes, 99).toFixed(1)} |`);
console.log(
  `| Redis (127.0.0.1, one EVALSHA per request) | ${percentile(redisTimes, 50).toFixed(1)} | ${percentile(redisTimes, 99).toFixed(1)} |`,
);
console.log(
  `| added by Redis | ${(percentile(redisTimes, 50) - percentile(memoryTimes, 50)).toFixed(1)} | ${(percentile(redisTimes, 99) - percentile(memoryTimes, 99)).toFixed(1)} |`,
);
reportJson('rate-limit', {
  cpu: rows,
  latencyUs: {
    memory: { p50: percentile(memoryTimes, 50), p99: percentile(memoryTimes, 99) },
    redis: { p50: percentile(redisTimes, 50), p99: percentile(redisTimes, 99) },
  },
});
await redisStore.close();
await redis.close();
await fastifyPlain.close();
await fastifyLimited.close();
