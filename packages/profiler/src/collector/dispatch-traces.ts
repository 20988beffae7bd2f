import type { DispatchTrace } from '@switchboard/http-kernel/tracing';
import type { ChainRecording, RequestRecording } from '../recording/request-recording.js';

/** A dispatch and the request it was made for. */
export interface OwnedTrace {
  readonly trace: DispatchTrace;
  readonly owner: RequestRecording;
}

/** The dispatches of `recording` and of its sub-requests, in the order they started (events and time panels). */
export function tracesOf(chain: ChainRecording, recording: RequestRecording): OwnedTrace[] {
  const traces: OwnedTrace[] = [];
  for (const owner of chain.descendantsOf(recording)) {
    for (const trace of owner.traces) traces.push({ trace, owner });
  }
  return traces.sort((a, b) => a.trace.startedAt - b.trace.startedAt);
}

/** Durations to the microsecond: finer digits are noise and bloat the stored JSON. */
export function roundMs(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
