import type { Logger } from '@switchboard/http-kernel';
import { monitorEventLoopDelay, performance, type EventLoopUtilization, type IntervalHistogram } from 'node:perf_hooks';

/** One sample of what the process is going through. */
export interface PressureReadings {
  /** The event loop's longest delay over the last interval, in ms: how long some request waited for the loop. */
  eventLoopDelayMs: number;
  /** Share of the last interval the event loop was busy, 0 to 1. */
  eventLoopUtilization: number;
  heapUsedBytes: number;
  rssBytes: number;
}

/** A limit per reading; a reading without one is not watched. */
export interface PressureThresholds {
  maxEventLoopDelayMs?: number;
  maxEventLoopUtilization?: number;
  maxHeapUsedBytes?: number;
  maxRssBytes?: number;
}

export interface PressureMonitorOptions extends PressureThresholds {
  /** How often the readings are taken, in ms. Default 1000. Requests only read the last verdict. */
  sampleInterval?: number;
  /**
   * Takes the readings instead of `perf_hooks` and `process.memoryUsage()`: for tests (drive the
   * monitor into pressure and out again without loading the machine) and for readings from
   * elsewhere (a container's memory limit). Called once per `sampleInterval`, and by `sample()`.
   */
  readings?: () => PressureReadings;
  /** Told when pressure starts (WARNING, with its causes and readings) and ends (INFO), on its `pressure` channel. */
  logger?: Logger;
  /** Monotonic clock in ms. Default `performance.now`; tests pass their own to control `Retry-After`. */
  now?: () => number;
}

/** Which thresholds the last readings passed: `eventLoopDelay`, `eventLoopUtilization`, `heapUsed`, `rss`. */
export type PressureCause = 'eventLoopDelay' | 'eventLoopUtilization' | 'heapUsed' | 'rss';

/** `Retry-After` bounds, in seconds: a client waits at least a second and is never told to go for long. */
const MIN_RETRY_AFTER = 1;
const MAX_RETRY_AFTER = 60;

/**
 * Samples the process on a timer (`unref`ed: it never keeps the process alive) and keeps a verdict
 * that requests read for free: `underPressure`, since when, and why. Use one per process; `start()`
 * it with the server and `stop()` it at shutdown.
 */
export class PressureMonitor {
  readonly #thresholds: PressureThresholds;
  readonly #sampleInterval: number;
  readonly #readings: () => PressureReadings;
  readonly #now: () => number;
  readonly #measuresItself: boolean;
  readonly #logger: Logger | undefined;
  #histogram: IntervalHistogram | undefined;
  #lastUtilization: EventLoopUtilization | undefined;
  #timer: NodeJS.Timeout | undefined;
  #pressureSince: number | undefined;
  #causes: readonly PressureCause[] = [];
  #last: PressureReadings | undefined;

  constructor(options: PressureMonitorOptions = {}) {
    this.#thresholds = options;
    this.#sampleInterval = options.sampleInterval ?? 1000;
    if (!(this.#sampleInterval >= 10)) throw new RangeError(`sampleInterval must be at least 10 ms, got ${this.#sampleInterval}.`);
    this.#measuresItself = options.readings === undefined;
    this.#readings = options.readings ?? (() => this.#measure());
    this.#now = options.now ?? (() => performance.now());
    this.#logger = options.logger?.child({ channel: 'pressure' });
  }

  /** True from the sample that passed a threshold to the first one that passes none. */
  get underPressure(): boolean {
    return this.#pressureSince !== undefined;
  }

  /** The thresholds the last sample passed (empty when not under pressure). */
  get causes(): readonly PressureCause[] {
    return this.#causes;
  }

  /** The last sample's readings, `undefined` before the first. */
  get lastReadings(): PressureReadings | undefined {
    return this.#last;
  }

  /**
   * Seconds a shed client should wait: as long as the pressure has lasted so far (pressure that
   * lasted a while tends to last a while more), within 1 to 60 s.
   */
  retryAfterSeconds(): number {
    if (this.#pressureSince === undefined) return MIN_RETRY_AFTER;
    const lasted = Math.ceil((this.#now() - this.#pressureSince) / 1000);
    return Math.min(MAX_RETRY_AFTER, Math.max(MIN_RETRY_AFTER, lasted));
  }

  /** Starts sampling every `sampleInterval`. Idempotent. */
  start(): this {
    if (this.#timer !== undefined) return this;
    if (this.#histogram === undefined && this.#measuresItself) {
      this.#histogram = monitorEventLoopDelay({ resolution: 10 });
      this.#histogram.enable();
      this.#lastUtilization = performance.eventLoopUtilization();
    }
    this.#timer = setInterval(() => this.sample(), this.#sampleInterval);
    this.#timer.unref();
    return this;
  }

  /** Stops sampling; the verdict stays as it was. */
  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#histogram?.disable();
    this.#histogram = undefined;
  }

  /** Takes one sample now and updates the verdict (the timer calls it; tests may too). */
  sample(): void {
    const readings = this.#readings();
    this.#last = readings;
    const causes = exceeded(readings, this.#thresholds);
    this.#causes = causes;
    if (causes.length === 0) {
      if (this.#pressureSince !== undefined) {
        const lastedMs = Math.round(this.#now() - this.#pressureSince);
        this.#logger?.info({ lastedMs, readings }, `Pressure over after ${lastedMs} ms.`);
      }
      this.#pressureSince = undefined;
    } else if (this.#pressureSince === undefined) {
      this.#pressureSince = this.#now();
      this.#logger?.warn({ causes, readings }, `Under pressure (${causes.join(', ')}): shedding load.`);
    }
  }

  #measure(): PressureReadings {
    const histogram = this.#histogram;
    const delay = histogram === undefined ? 0 : histogram.max / 1e6;
    histogram?.reset();
    const utilization = performance.eventLoopUtilization();
    const sinceLast =
      this.#lastUtilization === undefined ? utilization : performance.eventLoopUtilization(utilization, this.#lastUtilization);
    this.#lastUtilization = utilization;
    const memory = process.memoryUsage();
    return { eventLoopDelayMs: delay, eventLoopUtilization: sinceLast.utilization, heapUsedBytes: memory.heapUsed, rssBytes: memory.rss };
  }
}

function exceeded(readings: PressureReadings, limits: PressureThresholds): PressureCause[] {
  const causes: PressureCause[] = [];
  if (limits.maxEventLoopDelayMs !== undefined && readings.eventLoopDelayMs > limits.maxEventLoopDelayMs) causes.push('eventLoopDelay');
  if (limits.maxEventLoopUtilization !== undefined && readings.eventLoopUtilization > limits.maxEventLoopUtilization) {
    causes.push('eventLoopUtilization');
  }
  if (limits.maxHeapUsedBytes !== undefined && readings.heapUsedBytes > limits.maxHeapUsedBytes) causes.push('heapUsed');
  if (limits.maxRssBytes !== undefined && readings.rssBytes > limits.maxRssBytes) causes.push('rss');
  return causes;
}
