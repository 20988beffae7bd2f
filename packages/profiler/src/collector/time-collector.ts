import type { CollectContext, DataCollector } from './data-collector.js';
import { roundMs, tracesOf } from './dispatch-traces.js';

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
    const timeline = tracesOf(chain, recording).map(
      ({ trace, owner }): TimelineEntry => ({
        event: trace.eventName,
        requestType: owner.requestType,
        startMs: roundMs(trace.startedAt - origin),
        durationMs: roundMs(trace.durationMs),
      }),
    );
    const end = recording.finishedAt ?? recording.respondedAt ?? origin;
    return {
      totalMs: roundMs(Math.max(0, end - origin)),
      untilResponseMs: roundMs(Math.max(0, (recording.respondedAt ?? origin) - origin)),
      timeline,
    };
  }
}
