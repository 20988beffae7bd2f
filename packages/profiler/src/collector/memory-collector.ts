import { memoryReading, type MemoryData } from '../recording/memory-reading.js';
import type { CollectContext, DataCollector } from './data-collector.js';

export type { MemoryData };

/** The process's memory around the time the request was answered, as its recording took it at kernel.terminate. */
export class MemoryCollector implements DataCollector<MemoryData> {
  readonly name = 'memory';

  collect({ recording }: CollectContext): MemoryData {
    return recording.memory ?? memoryReading();
  }
}
