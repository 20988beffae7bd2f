/**
 * Dispatcher benchmark: one event, ten distinct listener functions. Switchboard's typed,
 * prioritised, stoppable dispatch against eventemitter3's and node's plain emit to the same ten
 * functions, in one run.
 * Run: `cd bench && node --import tsx dispatcher.bench.ts` (env: BENCH_DISPATCHER_ROUNDS, default 9)
 */
import './built-packages.js';
import { EventEmitter as NodeEventEmitter } from 'node:events';
import { EventEmitter as EventEmitter3 } from 'eventemitter3';
import { Bench } from 'tinybench';
import { Event, EventDispatcher } from '@switchboard/http-kernel';
import { machineLine, median, reportJson } from './report.js';

// The constructor is written out: a field initializer alone makes the compiled class forward its
// arguments to `super` as a spread, which cost ~300 ns per event and buried the dispatch itself.
class CounterEvent extends Event {
  declare count: number;

  constructor() {
    super();
    this.count = 0;
  }
}

// Ten distinct functions, as a kernel's listeners are: ten copies of one function literal share
// their compiled code, which lets the engine inline the call and flatters every contender.
const listeners: Array<(event: CounterEvent) => void> = [
  (event) => {
    event.count += 1;
  },
  (event) => {
    event.count += 2;
  },
  (event) => {
    event.count += 3;
  },
  (event) => {
    event.count += 4;
  },
  (event) => {
    event.count += 5;
  },
  (event) => {
    event.count += 6;
  },
  (event) => {
    event.count += 7;
  },
  (event) => {
    event.count += 8;
  },
  (event) => {
    event.count += 9;
  },
  (event) => {
    event.count += 10;
  },
];
const LISTENERS = listeners.length;
const EXPECTED_COUNT = (LISTENERS * (LISTENERS + 1)) / 2;

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
  if (event.count !== EXPECTED_COUNT)
    throw new Error(`${name} counted ${event.count}, expected ${EXPECTED_COUNT} (each of the ${LISTENERS} listeners once)`);
}

// Each sample runs a batch, so the timer's own cost (tens of ns) does not flatten the ratios.
// Short rounds in rotated order, median ratio: on a shared machine a burst of other work then
// hits one round of every contender instead of the whole measurement of one.
const BATCH = 1000;
const ROUNDS = Number(process.env.BENCH_DISPATCHER_ROUNDS ?? 9);
const contenders: Array<[string, () => void]> = [
  [
    'switchboard dispatch (10 listeners)',
    () => {
      for (let i = 0; i < BATCH; i++) switchboard.dispatch('tick', new CounterEvent());
    },
  ],
  [
    'eventemitter3 emit (10 listeners)',
    () => {
      for (let i = 0; i < BATCH; i++) ee3.emit('tick', new CounterEvent());
    },
  ],
  [
    'node:events emit (10 listeners)',
    () => {
      for (let i = 0; i < BATCH; i++) node.emit('tick', new CounterEvent());
    },
  ],
];
const BASELINE = 'eventemitter3 emit (10 listeners)';

const means = new Map<string, number[]>(contenders.map(([name]) => [name, []]));
for (let round = 0; round < ROUNDS; round++) {
  const bench = new Bench({ time: 300, warmup: round === 0, warmupTime: 500 });
  for (let i = 0; i < contenders.length; i++) bench.add(...contenders[(i + round) % contenders.length]!);
  await bench.run();
  for (const task of bench.tasks) means.get(task.name)!.push((task.result as { latency: { mean: number } }).latency.mean);
}
const base = means.get(BASELINE)!;
const rows = contenders.map(([name]) => {
  const own = means.get(name)!;
  return { name, opsPerSecond: (BATCH * 1000) / median(own), costVsBaseline: median(own.map((mean, round) => mean / base[round]!)) };
});
console.log(`\n## Dispatcher: one event, 10 distinct listeners (${ROUNDS} rounds, median)\n${machineLine()}\n`);
console.log('| contender | ops/s | cost vs eventemitter3 |\n|---|---:|---:|');
for (const row of rows) {
  console.log(`| ${row.name} | ${Math.round(row.opsPerSecond).toLocaleString('en-US')} | ${row.costVsBaseline.toFixed(2)}× |`);
}
reportJson('dispatcher', rows);
