import type { CollectContext, DataCollector } from './data-collector.js';

export interface MemoryData {
  /** Bytes, for the whole process (Node has no per-request memory figure). */
  readonly heapUsed: number;
  readonly heapTotal: number;
  readonly rss: number;
  readonly external: number;
}

/** `process.memoryUsage()` reads /proc for the RSS; one reading serves the requests of this window. */
const READING_LIFETIME_MS = 100;

/**
 * The process's memory around the time the request was answered, read at kernel.terminate. The
 * figure is process-wide, so one reading is shared by the requests finishing within 100 ms:
 * under load, profiling then costs no extra system call per request.
 */
export class MemoryCollector implements DataCollector<MemoryData> {
  readonly name = 'memory';
  #reading: MemoryData | null = null;
  #readAt = Number.NEGATIVE_INFINITY;

  collect(_context: CollectContext): MemoryData {
    const now = performance.now();
    if (this.#reading === null || now - this.#readAt > READING_LIFETIME_MS) {
      const usage = process.memoryUsage();
      this.#reading = { heapUsed: usage.heapUsed, heapTotal: usage.heapTotal, rss: usage.rss, external: usage.external };
      this.#readAt = now;
    }
    return this.#reading;
  }
}
