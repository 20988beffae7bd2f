/**
 * Where a contender's requests allocate: V8's sampling heap profiler, keeping the objects that
 * were collected too (so short-lived per-request garbage is counted), over a fixed number of
 * in-process requests (http/memory-socket.ts). Prints the allocation sites by bytes per request.
 * Run: `cd bench && node --import tsx http/allocation-sites.ts [switchboard|switchboard-debug|switchboard-operations|adapter|fastify] [hello|404] [frames per site]`
 */
import '../built-packages.js';
import http, { type RequestListener } from 'node:http';
import { Session } from 'node:inspector/promises';
import { createListener as adapterOnly } from './apps/adapter-only.js';
import { createListener as fastify } from './apps/fastify.js';
import { createListener as switchboard } from './apps/switchboard.js';
import { HELLO_PATH, MISSING_PATH } from './contract.js';
import { MemorySocket } from './memory-socket.js';

const [contender = 'switchboard', which = 'hello'] = process.argv.slice(2);
const COUNT = 20_000;
const listeners: Record<string, () => RequestListener | Promise<RequestListener>> = {
  switchboard: () => switchboard(),
  'switchboard-debug': () => switchboard({ debug: true }),
  'switchboard-operations': () => switchboard({ operations: 'request-id+access-log' }),
  adapter: adapterOnly,
  fastify: () => fastify(),
};
const listener = await listeners[contender]!();
const path = which === '404' ? MISSING_PATH : HELLO_PATH;
const request = Buffer.from(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nAccept: application/json\r\nUser-Agent: bench\r\n\r\n`);

async function run(count: number): Promise<void> {
  const server = http.createServer(listener);
  const socket = new MemorySocket({ keep: true });
  server.emit('connection', socket);
  socket.push(request);
  for (let turn = 0; turn < 100 && socket.kept!.length === 0; turn++) await new Promise((resolve) => setImmediate(resolve));
  const answerBytes = Buffer.concat(socket.kept!).length;
  socket.destroy();
  const sockets = [new MemorySocket(), new MemorySocket()];
  for (const each of sockets) server.emit('connection', each);
  await Promise.all(
    sockets.map(async (each) => {
      for (let i = 0; i < count / sockets.length; i++) await each.exchange(request, answerBytes);
    }),
  );
  for (const each of sockets) each.destroy();
  server.close();
}

await run(COUNT); // warm-up
const session = new Session();
session.connect();
await session.post('HeapProfiler.startSampling', {
  samplingInterval: 256,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
});
await run(COUNT);
const { profile } = (await session.post('HeapProfiler.stopSampling')) as {
  profile: { head: ProfileNode };
};
interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: ProfileNode[];
}
const sites = new Map<string, number>();
let total = 0;
/** With a third argument, sites are named by their last three frames (callers first). */
const depth = process.argv[4] === undefined ? 1 : Number(process.argv[4]);
const frameName = ({ functionName, url, lineNumber }: ProfileNode['callFrame']): string =>
  `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}`;
const visit = (node: ProfileNode, callers: string[] = []): void => {
  const frames = [...callers, frameName(node.callFrame)].slice(-depth);
  if (node.selfSize > 0) {
    const site = frames.join(' < ');
    sites.set(site, (sites.get(site) ?? 0) + node.selfSize);
    total += node.selfSize;
  }
  for (const child of node.children) visit(child, frames);
};
visit(profile.head);
console.log(`${contender} ${which}: about ${Math.round(total / COUNT)} bytes sampled per request`);
for (const [site, bytes] of [...sites].sort((a, b) => b[1] - a[1]).slice(0, 40)) {
  console.log(`${String(Math.round(bytes / COUNT)).padStart(6)} B  ${site}`);
}
