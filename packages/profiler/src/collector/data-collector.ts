import type { Profile } from '../profile/profile.js';
import type { Redactor } from '../profile/redactor.js';
import type { ChainRecording, RequestRecording } from '../recording/request-recording.js';

/** What a collector is given for one request, at kernel.terminate (after the response was sent). */
export interface CollectContext {
  /** The request being profiled, with its traces, logs and response snapshot. */
  readonly recording: RequestRecording;
  /** Every request of the chain (main and sub-requests). */
  readonly chain: ChainRecording;
  readonly profile: Profile;
  /** Hides sensitive header values and configured secrets; collectors apply it to what they keep. */
  readonly redactor: Redactor;
}

/**
 * Gathers one panel's data. Its `name` is the panel name (`/_profiler/<token>?panel=<name>`). It
 * returns plain JSON data (stored as is, possibly in a file), or `undefined` when it has nothing
 * for this request (no exception, say) — the panel is then not offered.
 */
export interface DataCollector<D = unknown> {
  readonly name: string;
  collect(context: CollectContext): D | undefined;
}
