import { RequestType, type KernelEvent } from '@switchboard/http-kernel';
import { round } from './events-collector.js';
import type { CollectContext, DataCollector } from './data-collector.js';

export interface TimelineEntry {
  readonly event: string;
  readonly requestType: 'main' | 'sub';
  /** Milliseconds since the request started. */
  readonly startMs: number;
  readonly durationMs: number;
}

export interface TimeData {
  /** From the first kernel event of the request to the end of its kernel.finish_request. */
  readonly totalMs: number;
  /** From the first kernel event until kernel.response reached the profiler. */
  readonly untilResponseMs: number;
  readonly timeline: readonly TimelineEntry[];
}

/**
 * How long the request took and where the time went, from the dispatcher's traces. The clock
 * starts at the first kernel event, so time spent in the adapter reading the request is not counted.
 */
export class TimeCollector implements DataCollector<TimeData> {
  readonly name = 'time';

  collect({ recording, chain }: CollectContext): TimeData {
    const origin = recording.startedAt;
    const timeline: TimelineEntry[] = [];
    for (const owner of chain.descendantsOf(recording)) {
      for (const trace of owner.traces) {
        timeline.push({
          event: trace.eventName,
          requestType: (trace.event as KernelEvent).requestType === RequestType.SUB ? 'sub' : 'main',
          startMs: round(trace.startedAt - origin),
          durationMs: round(trace.durationMs),
        });
      }
    }
    timeline.sort((a, b) => a.startMs - b.startMs);
    const end = recording.finishedAt ?? recording.respondedAt ?? origin;
    return {
      totalMs: round(Math.max(0, end - origin)),
      untilResponseMs: round(Math.max(0, (recording.respondedAt ?? origin) - origin)),
      timeline,
    };
  }
}
