/**
 * `@switchboard/http-kernel/sse` — server-sent events: a response that streams events to an
 * `EventSource` (framing, heartbeats, `Last-Event-ID`, the retry hint at shutdown), caps on open
 * streams, and the `text/event-stream` format itself.
 * @module
 */
export {
  EventStreamResponse,
  type EventStreamSource,
  type EventStreamContext,
  type EventStreamEnding,
  type EventStreamOptions,
  type EventStreamOutcome,
} from './sse/event-stream-response.js';
export {
  DEFAULT_EVENT_STREAMS_PER_KEY,
  DEFAULT_EVENT_STREAMS_TOTAL,
  EventStreamCaps,
  type EventStreamCapsOptions,
} from './sse/event-stream-caps.js';
export { formatRetryHint, formatServerSentEvent, lastEventIdOf, type ServerSentEvent } from './sse/server-sent-event.js';
