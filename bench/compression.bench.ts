/**
 * Compression benchmark, two parts.
 * 1. What a level costs per response size: the JSON of an item list (1 KiB, 16 KiB, 256 KiB)
 *    compressed at once by node:zlib at the levels `CompressionListener` offers, each measured as
 *    CPU time per response (process.cpuUsage over a bounded loop) and size ratio; costs are shown
 *    relative to gzip 6 on the same body, so the table holds on a busy machine.
 * 2. The whole answer in process, 16 KiB of JSON with `Accept-Encoding: br` and `gzip`: the
 *    Switchboard kernel with `CompressionListener` against Fastify with `@fastify/compress`
 *    (`inject`), each also without compression, so the cost of the compression step shows beside
 *    each framework's own. Checks every answer decodes to the identity body first.
 * Run: `cd bench && node --import tsx compression.bench.ts` (after `pnpm run build`).
 */
import './built-packages.js';
import zlib from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import { CompressionListener } from '@switchboard/compression';
import { EventDispatcher, HttpKernel, JsonResponse, nullLogger, Request, type KernelEventMap } from '@switchboard/http-kernel';
import Fastify from 'fastify';
import { Bench } from 'tinybench';
import { machineLine, printTable, reportJson } from './report.js';

function itemsOfSize(bytes: number): unknown[] {
  const items: unknown[] = [];
  for (let id = 1; JSON.stringify(items).length < bytes; id++)
    items.push({ id, name: `item number ${id}`, quantity: id % 17, createdAt: new Date(1_700_000_000_000 + id * 60_000).toISOString() });
  return items;
}

type Level = { name: string; compress: (data: Buffer) => Buffer };
const brotli = (quality: number): Level => ({
  name: `br ${quality}`,
  compress: (data) =>
    zlib.brotliCompressSync(data, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: quality, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length },
    }),
});
const gzip = (level: number): Level => ({ name: `gzip ${level}`, compress: (data) => zlib.gzipSync(data, { level }) });
const LEVELS: Level[] = [
  brotli(1),
  brotli(4),
  brotli(6),
  brotli(11),
  gzip(1),
  gzip(6),
  gzip(9),
  { name: 'deflate 6', compress: (data) => zlib.deflateSync(data, { level: 6 }) },
];

/** CPU µs per call, over at most `maxCalls` calls or 300 ms of CPU, whichever comes first. */
function cpuMicrosPerCall(run: () => void, maxCalls: number): number {
  for (let i = 0; i < Math.min(5, maxCalls); i++) run();
  const start = process.cpuUsage();
  let calls = 0;
  let used = 0;
  while (calls < maxCalls && used < 300_000) {
    run();
    calls++;
    const now = process.cpuUsage(start);
    used = now.user + now.system;
  }
  return used / calls;
}

console.log(`\n## Compression: CPU per response and size, by level\n${machineLine()}\n`);
console.log('| body | coding level | size ratio | CPU per response vs gzip 6 |\n|---|---|---:|---:|');
const levelRows: unknown[] = [];
for (const size of [1024, 16 * 1024, 256 * 1024]) {
  const body = Buffer.from(JSON.stringify(itemsOfSize(size)));
  const costs = new Map<string, number>();
  for (const level of LEVELS)
    costs.set(
      level.name,
      cpuMicrosPerCall(() => level.compress(body), size > 64 * 1024 ? 200 : 5000),
    );
  const gzip6 = costs.get('gzip 6')!;
  for (const level of LEVELS) {
    const ratio = level.compress(body).length / body.length;
    const cost = costs.get(level.name)! / gzip6;
    levelRows.push({ body: body.length, level: level.name, ratio, costVsGzip6: cost });
    console.log(`| ${(body.length / 1024).toFixed(0)} KiB | ${level.name} | ${ratio.toFixed(3)} | ${cost.toFixed(2)}× |`);
  }
}
reportJson('compression-levels', levelRows);

// Part 2: the whole answer, in process.
const ITEMS = itemsOfSize(16 * 1024);
function kernel(compress: boolean): HttpKernel {
  const dispatcher = new EventDispatcher<KernelEventMap>();
  if (compress) dispatcher.addSubscriber(new CompressionListener());
  const list = () => new JsonResponse(ITEMS);
  dispatcher.on('kernel.request', (event) => void event.request.attributes.set('_controller', list), 32);
  return new HttpKernel({ dispatcher, logger: nullLogger });
}
const withCompression = kernel(true);
const withoutCompression = kernel(false);
const sbRequest = (encoding: string) => Request.fromUrl('http://127.0.0.1:8000/api/items', { headers: { 'accept-encoding': encoding } });
const sbBody = async (k: HttpKernel, encoding: string) => {
  const response = await k.handle(sbRequest(encoding));
  const body = response.body;
  return { encoding: response.headers.get('content-encoding'), body: Buffer.from(typeof body === 'string' ? body : (body as Uint8Array)) };
};

async function fastifyApp(compress: boolean) {
  const app = Fastify({ logger: false });
  if (compress) await app.register(fastifyCompress);
  app.get('/api/items', async () => ITEMS);
  await app.ready();
  return app;
}
const fastifyWith = await fastifyApp(true);
const fastifyWithout = await fastifyApp(false);
const fastifyBody = async (app: Awaited<ReturnType<typeof fastifyApp>>, encoding: string) => {
  const response = await app.inject({ method: 'GET', url: '/api/items', headers: { 'accept-encoding': encoding } });
  return { encoding: response.headers['content-encoding'], body: response.rawPayload };
};

const identity = Buffer.from(JSON.stringify(ITEMS));
const decode = (encoding: unknown, body: Buffer) =>
  encoding === 'br' ? zlib.brotliDecompressSync(body) : encoding === 'gzip' ? zlib.gunzipSync(body) : body;
const sizes: Record<string, number> = {};
for (const encoding of ['br', 'gzip']) {
  const ours = await sbBody(withCompression, encoding);
  const theirs = await fastifyBody(fastifyWith, encoding);
  if (ours.encoding !== encoding || !decode(ours.encoding, ours.body).equals(identity)) throw new Error(`switchboard ${encoding} wrong`);
  if (theirs.encoding !== encoding || !decode(theirs.encoding, theirs.body).equals(identity)) throw new Error(`fastify ${encoding} wrong`);
  sizes[`switchboard ${encoding}`] = ours.body.length / identity.length;
  sizes[`fastify ${encoding}`] = theirs.body.length / identity.length;
}
console.log(
  `\nSize ratios on ${(identity.length / 1024).toFixed(0)} KiB of JSON: ${Object.entries(sizes)
    .map(([name, ratio]) => `${name} ${ratio.toFixed(3)}`)
    .join(', ')}`,
);

const BATCH = 20;
const bench = new Bench({ time: 1500, warmup: true, warmupTime: 300 });
for (const encoding of ['br', 'gzip']) {
  bench.add(`switchboard, CompressionListener, ${encoding}`, async () => {
    for (let i = 0; i < BATCH; i++) (await withCompression.handle(sbRequest(encoding))).body;
  });
  bench.add(`fastify inject, @fastify/compress, ${encoding}`, async () => {
    for (let i = 0; i < BATCH; i++)
      await fastifyWith.inject({ method: 'GET', url: '/api/items', headers: { 'accept-encoding': encoding } });
  });
}
bench.add('switchboard, identity', async () => {
  for (let i = 0; i < BATCH; i++) (await withoutCompression.handle(sbRequest('identity'))).body;
});
bench.add('fastify inject, identity', async () => {
  for (let i = 0; i < BATCH; i++) await fastifyWithout.inject({ method: 'GET', url: '/api/items' });
});
await bench.run();
const rows = printTable('Compression: 16 KiB JSON answered in process', bench, 'fastify inject, @fastify/compress, br', BATCH);
reportJson('compression', { rows, sizes });
await fastifyWith.close();
await fastifyWithout.close();
