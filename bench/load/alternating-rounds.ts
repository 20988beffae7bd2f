/**
 * The shape shared by the load benchmarks that compare two hosts: rounds of load alternate between
 * them, so drift on a shared machine hits both, and each contender's rounds add up here.
 */
import { autocannon, machineCpuReader, type BenchHost, type MixEntry } from './host-process.js';

/** What one contender's measured rounds add up to. */
export class RoundTotals {
  requests = 0;
  seconds = 0;
  /** CPU seconds of the host's processes. */
  hostCpu = 0;
  /** CPU seconds of a helper server the contender uses (redis-server), when the round reads one. */
  serverCpu = 0;
  /** Responses whose check failed. */
  wrong = 0;
  errors = 0;
  readonly p50: number[] = [];
  readonly p99: number[] = [];
  /** Busy share of the whole machine, per round. */
  readonly machineBusy: number[] = [];
  /** req/s, per round. */
  readonly roundRates: number[] = [];

  get requestsPerSecond(): number {
    return this.requests / this.seconds;
  }

  /** Host CPU per request, in µs. */
  get hostCpuPerRequest(): number {
    return (this.hostCpu / this.requests) * 1e6;
  }

  /** `94 %, 97 %`: the machine's busy share in each round. */
  get machineBusyText(): string {
    return this.machineBusy.map((share) => `${Math.round(share * 100)} %`).join(', ');
  }
}

export interface RoundOptions {
  connections: number;
  /** Seconds. */
  duration: number;
  /** The request mix, whose response checks count wrong answers into the totals given. */
  mix: (totals: RoundTotals) => MixEntry[];
  /** CPU seconds so far of a helper server, read before and after the round. */
  serverCpuSeconds?: () => Promise<number>;
}

/** One round of load against `host`, added to `totals`; `null` for a warm-up, counted nowhere. */
export async function runRound(host: BenchHost, totals: RoundTotals | null, options: RoundOptions): Promise<void> {
  const sink = totals ?? new RoundTotals();
  const hostBefore = host.cpuSeconds();
  const serverBefore = (await options.serverCpuSeconds?.()) ?? 0;
  const machine = machineCpuReader();
  const result = await autocannon({
    url: host.url,
    connections: options.connections,
    duration: options.duration,
    requests: options.mix(sink),
  });
  if (totals === null) return;
  totals.machineBusy.push(machine());
  totals.hostCpu += host.cpuSeconds() - hostBefore;
  totals.serverCpu += ((await options.serverCpuSeconds?.()) ?? 0) - serverBefore;
  totals.requests += result.requests.total;
  totals.seconds += options.duration;
  totals.errors += result.errors + result.timeouts;
  totals.p50.push(result.latency.p50);
  totals.p99.push(result.latency.p99);
  totals.roundRates.push(result.requests.total / options.duration);
}
