// Same-process A/B: node pair.mjs case rounds chunk treeA treeB [...]: each tree's switchboard app (debug off), interleaved chunks.
import http from 'node:http';
import { Duplex } from 'node:stream';
import { build } from 'esbuild';
const [which, rounds, chunk, ...trees] = process.argv.slice(2);
class MemorySocket extends Duplex {
  remoteAddress = '127.0.0.1'; remotePort = 40000; remoteFamily = 'IPv4'; localAddress = '127.0.0.1'; localPort = 8080; received = 0; target = 0; reached = null;
  _read() {} _write(c, _e, d) { this.count(c); d(); } _writev(cs, d) { for (const { chunk } of cs) this.count(chunk); d(); }
  exchange(req, bytes) { return new Promise((r) => { this.target = this.received + bytes; this.reached = r; setImmediate(() => this.push(req)); }); }
  setTimeout() { return this; } setNoDelay() { return this; } setKeepAlive() { return this; }
  count(c) { this.received += c.length; if (this.reached && this.received >= this.target) { const r = this.reached; this.reached = null; r(); } }
}
const path = which === 'hello' ? '/hello' : '/missing/robots.txt';
const req = Buffer.from(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nAccept: application/json\r\nUser-Agent: bench\r\n\r\n`);
const apps = [];
for (const t of trees) {
  const out = `${t}/bench/.compiled/sb-app.mjs`;
  await build({ entryPoints: [`${t}/bench/http/apps/switchboard.ts`], bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', outfile: out, logLevel: 'warning' });
  const { createListener } = await import(out);
  const server = http.createServer(createListener());
  const sockets = Array.from({ length: 10 }, () => new MemorySocket());
  for (const s of sockets) server.emit('connection', s);
  // answer size
  const probe = new MemorySocket(); server.emit('connection', probe); let before = 0; probe.push(req);
  for (let i = 0; i < 50 && probe.received === 0; i++) await new Promise((r) => setImmediate(r));
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  apps.push({ t, sockets, bytes: probe.received, cost: [] });
}
const run = async (app, n) => { const start = process.cpuUsage(); await Promise.all(app.sockets.map(async (s) => { for (let i = 0; i < n / 10; i++) await s.exchange(req, app.bytes); })); const u = process.cpuUsage(start); return (u.user + u.system) / n; };
for (const app of apps) await run(app, 20000); // warm up
for (let r = 0; r < Number(rounds); r++) {
  const order = r % 2 === 0 ? apps : [...apps].reverse();
  for (const app of order) app.cost.push(await run(app, Number(chunk)));
}
const median = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];
const base = apps[0];
for (const app of apps) {
  const ratios = app.cost.map((c, i) => c / base.cost[i]);
  const sum = (v) => v.reduce((a, b) => a + b, 0);
  console.log(`${which} ${app.t.padEnd(28)} bytes ${app.bytes} median ${median(app.cost).toFixed(2)} µs  median ratio ${median(ratios).toFixed(3)}  total ratio ${(sum(app.cost) / sum(base.cost)).toFixed(3)}`);
}
