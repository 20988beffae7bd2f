import type { DispatchTrace } from '@switchboard/http-kernel/tracing';
import { describeError } from '@switchboard/http-kernel/internal';
import type { RequestRecording } from '../recording/request-recording.js';
import type { CollectContext, DataCollector } from './data-collector.js';
import { roundMs, tracesOf } from './dispatch-traces.js';

export interface ListenerCallData {
  readonly name: string;
  readonly priority: number;
  readonly durationMs: number;
  readonly threw: boolean;
  /** This listener set `propagationStopped`. */
  readonly stoppedPropagation: boolean;
}

export interface DispatchData {
  readonly event: string;
  readonly requestType: 'main' | 'sub';
  /** Token of the request it was dispatched for (`null` before that request got one). */
  readonly token: string | null;
  /** Milliseconds since the profiled request started. */
  readonly startMs: number;
  readonly durationMs: number;
  readonly called: readonly ListenerCallData[];
  /** Listeners skipped because propagation was stopped. */
  readonly notCalled: ReadonlyArray<{ readonly name: string; readonly priority: number }>;
  /** `Name: message` of the error a listener threw, which ended the dispatch. */
  readonly error: string | null;
}

export interface EventsData {
  /** Every dispatch of this request and its sub-requests, in the order they started. */
  readonly dispatches: readonly DispatchData[];
}

/** The kernel trace, read from the dispatcher's tracer: what ran, in which order, how long, what was skipped. */
export class EventsCollector implements DataCollector<EventsData> {
  readonly name = 'events';

  collect({ recording, chain }: CollectContext): EventsData {
    const origin = recording.startedAt;
    return { dispatches: tracesOf(chain, recording).map(({ trace, owner }) => dispatchData(trace, owner, origin)) };
  }
}

function dispatchData(trace: DispatchTrace, owner: RequestRecording, origin: number): DispatchData {
  return {
    event: trace.eventName,
    requestType: owner.requestType,
    token: owner.token,
    startMs: roundMs(trace.startedAt - origin),
    durationMs: roundMs(trace.durationMs),
    called: trace.called.map((call) => ({
      name: call.name,
      priority: call.priority,
      durationMs: roundMs(call.durationMs),
      threw: call.threw === true,
      stoppedPropagation: trace.stoppedBy === call.name,
    })),
    notCalled: trace.notCalled.map((info) => ({ name: info.name, priority: info.priority })),
    error: trace.error === undefined ? null : describeError(trace.error),
  };
}
