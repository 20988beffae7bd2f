/**
 * Dispatcher benchmark: one event, ten listeners. Switchboard's typed, prioritised, stoppable
 * dispatch against eventemitter3's and node's plain emit to the same ten functions, in one run.
 * Run: `cd bench && node --import tsx dispatcher.bench.ts`
 */
import './built-packages.js';
import { EventEmitter as NodeEventEmitter } from 'node:events';
import { EventEmitter as EventEmitter3 } from 'eventemitter3';
import { Bench } from 'tinybench';
import { Event, EventDispatcher } from '@switchboard/http-kernel';
import { printTable, reportJson } from './report.js';

// The constructor is written out: a field initializer alone makes the compiled class forward its
// arguments to `super` as a spread, which cost ~300 ns per event and buried the dispatch itself.
class CounterEvent extends Event {
  declare count: number;

  constructor() {
    super();
    this.count = 0;
  }
}

const LISTENERS = 10;
const listeners = Array.from({ length: LISTENERS }, () => (event: CounterEvent) => {
  event.count++;
});

const switchboard = new EventDispatcher<{ tick: CounterEvent }>();
// Different priorities so the sorted order is real work done once, not per dispatch.
listeners.forEach((listener, i) => switchboard.on('tick', listener, i % 3));
const ee3 = new EventEmitter3();
const node = new NodeEventEmitter();
for (const listener of listeners) {
  ee3.on('tick', listener);
  node.on('tick', listener);
}

// Correctness first: every contender calls all ten listeners once per dispatch.
for (const [name, run] of [
  ['switchboard', (e: CounterEvent) => switchboard.dispatch('tick', e)],
  ['eventemitter3', (e: CounterEvent) => ee3.emit('tick', e)],
  ['node:events', (e: CounterEvent) => node.emit('tick', e)],
] as const) {
  const event = new CounterEvent();
  run(event);
  if (event.count !== LISTENERS) throw new Error(`${name} called ${event.count} listeners, expected ${LISTENERS}`);
}

// Each sample runs a batch, so the timer's own cost (tens of ns) does not flatten the ratios.
const BATCH = 1000;
const bench = new Bench({ time: 2000, warmup: true, warmupTime: 500 });
bench
  .add('switchboard dispatch (10 listeners)', () => {
    for (let i = 0; i < BATCH; i++) switchboard.dispatch('tick', new CounterEvent());
  })
  .add('eventemitter3 emit (10 listeners)', () => {
    for (let i = 0; i < BATCH; i++) ee3.emit('tick', new CounterEvent());
  })
  .add('node:events emit (10 listeners)', () => {
    for (let i = 0; i < BATCH; i++) node.emit('tick', new CounterEvent());
  });

await bench.run();
const rows = printTable('Dispatcher: one event, 10 listeners', bench, 'eventemitter3 emit (10 listeners)', BATCH);
reportJson('dispatcher', rows);
