import { EventEmitter as EE3 } from 'eventemitter3';
import { Bench } from 'tinybench';
import { EventDispatcher } from '@switchboard/http-kernel';
class Event { constructor() { this.propagationStopped = false; } }
class CounterEvent extends Event { constructor() { super(); this.count = 0; } }
const listeners = [
  (e) => { e.count += 1; }, (e) => { e.count += 2; }, (e) => { e.count += 3; }, (e) => { e.count += 4; }, (e) => { e.count += 5; },
  (e) => { e.count += 6; }, (e) => { e.count += 7; }, (e) => { e.count += 8; }, (e) => { e.count += 9; }, (e) => { e.count += 10; },
];
const isThenable = (v) => v !== undefined && v !== null && typeof v.then === 'function';
const variant = process.argv[2];
function loopA(calls, name, event) {
  for (let i = 0; i < calls.length; i++) {
    if (event.propagationStopped === true) break;
    const r = calls[i](event, name);
    if (isThenable(r)) return r;
  }
  return event;
}
function loopB(calls, name, event, from) {
  for (let i = from; i < calls.length; i++) {
    if (event.propagationStopped === true) break;
    const r = calls[i](event, name);
    if (isThenable(r)) return r;
  }
  return event;
}
class D {
  #chains = new Map();
  on(name, fn) { const c = this.#chains.get(name); if (c) c.push(fn); else this.#chains.set(name, [fn]); }
  inline(name, event) {
    const calls = this.#chains.get(name);
    for (let i = 0; i < calls.length; i++) {
      if (event.propagationStopped === true) break;
      const r = calls[i](event, name);
      if (isThenable(r)) return r;
    }
    return event;
  }
  a(name, event) { return loopA(this.#chains.get(name), name, event); }
  b(name, event) { return loopB(this.#chains.get(name), name, event, 0); }
}
const sb = new EventDispatcher(); listeners.forEach((l, i) => sb.on('tick', l, i % 3));
const d = new D(); listeners.forEach((l) => d.on('tick', l));
const ee3 = new EE3(); listeners.forEach((l) => ee3.on('tick', l));
const B = 1000;
const bench = new Bench({ time: 1500, warmup: true, warmupTime: 400 });
bench.add('ee3', () => { for (let i = 0; i < B; i++) ee3.emit('tick', new CounterEvent()); });
if (variant === 'sb') bench.add('sb', () => { for (let i = 0; i < B; i++) sb.dispatch('tick', new CounterEvent()); });
if (variant === 'inline') bench.add('inline', () => { for (let i = 0; i < B; i++) d.inline('tick', new CounterEvent()); });
if (variant === 'a') bench.add('a', () => { for (let i = 0; i < B; i++) d.a('tick', new CounterEvent()); });
if (variant === 'b') bench.add('b', () => { for (let i = 0; i < B; i++) d.b('tick', new CounterEvent()); });
await bench.run();
const base = bench.tasks[0].result.latency.mean;
for (const t of bench.tasks) { const m = t.result.latency.mean; console.log(variant, t.name, (m / B * 1e6).toFixed(0), 'ns', (m / base).toFixed(2)); }
