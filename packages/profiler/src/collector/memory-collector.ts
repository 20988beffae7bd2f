import type { CollectContext, DataCollector } from './data-collector.js';

export interface MemoryData {
  /** Bytes, for the whole process (Node has no per-request memory figure). */
  readonly heapUsed: number;
  readonly heapTotal: number;
  readonly rss: number;
  readonly external: number;
}

/**
 * The process's memory right after the request was answered. Read once per request chain (the
 * sub-requests' profiles share the figure), at kernel.terminate.
 */
export class MemoryCollector implements DataCollector<MemoryData> {
  readonly name = 'memory';
  readonly #perChain = new WeakMap<object, MemoryData>();

  collect({ chain }: CollectContext): MemoryData {
    let data = this.#perChain.get(chain);
    if (data === undefined) {
      const usage = process.memoryUsage();
      data = { heapUsed: usage.heapUsed, heapTotal: usage.heapTotal, rss: usage.rss, external: usage.external };
      this.#perChain.set(chain, data);
    }
    return data;
  }
}
