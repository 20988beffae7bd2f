/**
 * The text/event-stream format (WHATWG HTML, "Server-sent events"): how one event is written, and
 * what a client's `Last-Event-ID` header says.
 */

/** One event. `data` that is not a string is sent as JSON. */
export interface ServerSentEvent {
  data: unknown;
  /** The event type (`addEventListener(type)` in a browser); without it, `message`. */
  event?: string;
  /** Remembered by the client and sent back as `Last-Event-ID` when it reconnects. */
  id?: string;
  /** How long the client waits before reconnecting, in milliseconds. */
  retry?: number;
}

const LINE_BREAK = /\r\n|\r|\n/;

/**
 * The event as it goes on the wire, blank line included. Every line of `data` becomes a `data:`
 * line, so a line break in the data cannot start a field of its own. `event` and `id` are single
 * lines: a line break in them, or a NUL in `id` (which the client would drop), throws a
 * `TypeError` rather than being sent.
 */
export function formatServerSentEvent(event: ServerSentEvent): string {
  let frame = '';
  if (event.id !== undefined) frame += `id: ${singleLine(event.id, 'id', true)}\n`;
  if (event.event !== undefined) frame += `event: ${singleLine(event.event, 'event', false)}\n`;
  if (event.retry !== undefined) frame += retryField(event.retry);
  const data = typeof event.data === 'string' ? event.data : JSON.stringify(event.data);
  if (data === undefined) throw new TypeError('An event needs data that JSON can represent.');
  for (const line of data.split(LINE_BREAK)) frame += `data: ${line}\n`;
  return `${frame}\n`;
}

/** A `retry:` field alone: a reconnection delay hint without an event. */
export function formatRetryHint(milliseconds: number): string {
  return `${retryField(milliseconds)}\n`;
}

/** A comment line, which clients ignore: keeps proxies from closing an idle stream. */
export const HEARTBEAT_COMMENT = ':\n\n';

/**
 * The id the client last received, from its `Last-Event-ID` header; `null` when it sent none, or
 * one with a NUL (which no conforming client sends, since ids with NUL are never stored).
 */
export function lastEventIdOf(headerValue: string | undefined): string | null {
  if (headerValue === undefined || headerValue === '' || headerValue.includes('\0')) return null;
  return headerValue;
}

function singleLine(value: string, field: 'id' | 'event', refuseNul: boolean): string {
  if (LINE_BREAK.test(value)) throw new TypeError(`A server-sent event's ${field} cannot contain a line break.`);
  if (refuseNul && value.includes('\0')) throw new TypeError(`A server-sent event's ${field} cannot contain NUL.`);
  return value;
}

function retryField(milliseconds: number): string {
  if (!Number.isSafeInteger(milliseconds) || milliseconds < 0) {
    throw new TypeError(`A retry delay is a whole number of milliseconds, got ${milliseconds}.`);
  }
  return `retry: ${milliseconds}\n`;
}
