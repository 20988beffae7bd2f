import { describe, expect, it } from 'vitest';
import { ClientGoneError, Request, ServerShutdownError } from '../src/index.js';
import { EventStreamResponse, formatRetryHint, formatServerSentEvent, lastEventIdOf, type ServerSentEvent } from '../src/sse.js';

describe('formatServerSentEvent', () => {
  it('writes each field on its own line and ends the event with a blank line', () => {
    expect(formatServerSentEvent({ id: '7', event: 'created', retry: 2500, data: 'hello' })).toBe(
      'id: 7\nevent: created\nretry: 2500\ndata: hello\n\n',
    );
  });

  it('sends every line of multi-line data as a data line of its own, whatever the line break', () => {
    expect(formatServerSentEvent({ data: 'one\ntwo\r\nthree\rfour' })).toBe('data: one\ndata: two\ndata: three\ndata: four\n\n');
    // A line that looks like a field stays inside data.
    expect(formatServerSentEvent({ data: 'x\nid: 99\n\nevent: evil' })).toBe('data: x\ndata: id: 99\ndata: \ndata: event: evil\n\n');
  });

  it('sends data that is not a string as JSON', () => {
    expect(formatServerSentEvent({ data: { a: 1, text: 'line\nbreak' } })).toBe('data: {"a":1,"text":"line\\nbreak"}\n\n');
    expect(() => formatServerSentEvent({ data: undefined })).toThrow(TypeError);
  });

  it.each<[string, ServerSentEvent]>([
    ['a line feed in event', { event: 'a\nid: 1', data: 'x' }],
    ['a carriage return in event', { event: 'a\rdata: y', data: 'x' }],
    ['a line feed in id', { id: '1\nevent: evil', data: 'x' }],
    ['a carriage return in id', { id: '1\r', data: 'x' }],
    ['a NUL in id', { id: 'a\0b', data: 'x' }],
    ['a negative retry', { retry: -1, data: 'x' }],
    ['a fractional retry', { retry: 1.5, data: 'x' }],
  ])('refuses %s instead of sending it', (_case, event) => {
    expect(() => formatServerSentEvent(event)).toThrow(TypeError);
  });

  it('writes a retry hint alone', () => {
    expect(formatRetryHint(1000)).toBe('retry: 1000\n\n');
  });
});

describe('lastEventIdOf', () => {
  it('reads the header, and ignores an empty one or one with NUL', () => {
    expect(lastEventIdOf('42')).toBe('42');
    expect(lastEventIdOf(undefined)).toBeNull();
    expect(lastEventIdOf('')).toBeNull();
    expect(lastEventIdOf('4\x002')).toBeNull();
  });
});

async function* numbered(count: number): AsyncGenerator<ServerSentEvent> {
  for (let n = 1; n <= count; n++) yield { id: String(n), data: `event ${n}` };
}

async function readAll(response: EventStreamResponse): Promise<string> {
  let text = '';
  for await (const chunk of response.body as AsyncIterable<string>) text += chunk;
  return text;
}

describe('EventStreamResponse', () => {
  it('sets the event-stream headers and frames each event, opening with a comment', async () => {
    const response = new EventStreamResponse(Request.fromUrl('http://localhost/events'), numbered(2));
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('cache-control')).toBe('no-cache, private');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    expect(await readAll(response)).toBe(':\n\nid: 1\ndata: event 1\n\nid: 2\ndata: event 2\n\n');
    expect(await response.finished).toEqual({ eventsSent: 2, ending: 'completed' });
  });

  it('hands the Last-Event-ID and the request signal to a generator function', async () => {
    const controller = new AbortController();
    const request = Request.fromUrl('http://localhost/events', { headers: { 'last-event-id': '41' }, signal: controller.signal });
    let seen: { lastEventId: string | null; signal: AbortSignal } | undefined;
    const response = new EventStreamResponse(request, async function* (context) {
      seen = context;
      yield { data: 'x' };
    });
    await readAll(response);
    expect(seen?.lastEventId).toBe('41');
    expect(seen?.signal).toBe(controller.signal);
  });

  it('stops the source when the signal fires (its finally runs) and says why', async () => {
    const controller = new AbortController();
    const request = Request.fromUrl('http://localhost/events', { signal: controller.signal });
    let cleanedUp = false;
    const response = new EventStreamResponse(request, async function* ({ signal }) {
      try {
        yield { data: 'first' };
        // Waits until the signal fires, as a source waiting for news does.
        await new Promise((resolve) => signal.addEventListener('abort', resolve));
      } finally {
        cleanedUp = true;
      }
    });
    const chunks = (response.body as AsyncIterable<string>)[Symbol.asyncIterator]();
    expect((await chunks.next()).value).toBe(':\n\n');
    expect((await chunks.next()).value).toBe('data: first\n\n');
    const pending = chunks.next();
    controller.abort(new ClientGoneError());
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(await response.finished).toEqual({ eventsSent: 1, ending: 'client-gone' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(cleanedUp).toBe(true);
  });

  it('sends a last retry hint when the server shuts down', async () => {
    const controller = new AbortController();
    const request = Request.fromUrl('http://localhost/events', { signal: controller.signal });
    const response = new EventStreamResponse(
      request,
      async function* ({ signal }) {
        await new Promise((resolve) => signal.addEventListener('abort', resolve));
        yield { data: 'never sent' };
      },
      { shutdownRetryMs: 3000 },
    );
    const reading = readAll(response);
    controller.abort(new ServerShutdownError());
    expect(await reading).toBe(':\n\nretry: 3000\n\n');
    expect(response.outcome).toEqual({ eventsSent: 0, ending: 'shutdown' });
  });

  it('ends at expiresAt with a last retry hint, and stops the source', async () => {
    let stopped = false;
    const response = new EventStreamResponse(
      Request.fromUrl('http://localhost/events'),
      async function* ({ signal }) {
        try {
          await new Promise((resolve) => signal.addEventListener('abort', resolve));
          yield { data: 'never sent' };
        } finally {
          stopped = true;
        }
      },
      { expiresAt: new Date(Date.now() + 50), expiryRetryMs: 2500, heartbeatIntervalMs: 0 },
    );
    expect(await readAll(response)).toBe(':\n\nretry: 2500\n\n');
    expect(response.outcome).toEqual({ eventsSent: 0, ending: 'expired' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(true);
  });

  it('ends with "error" when the source throws or an event cannot be framed', async () => {
    const response = new EventStreamResponse(Request.fromUrl('http://localhost/events'), async function* () {
      yield { data: 'ok' };
      yield { id: 'bad\nid', data: 'x' };
    });
    await expect(readAll(response)).rejects.toThrow(TypeError);
    expect(response.outcome).toEqual({ eventsSent: 1, ending: 'error' });
  });

  it('has no body for HEAD and is over at once', async () => {
    const response = new EventStreamResponse(Request.fromUrl('http://localhost/events', { method: 'HEAD' }), numbered(3));
    expect(response.body).toBeNull();
    expect(await response.finished).toEqual({ eventsSent: 0, ending: 'completed' });
  });
});

describe('Request.signal', () => {
  it('never fires without a source, and a sub-request shares its parent’s', () => {
    const controller = new AbortController();
    const request = Request.fromUrl('http://localhost/', { signal: controller });
    const copy = request.duplicate();
    expect(copy.signal).toBe(request.signal);
    expect(Request.fromUrl('http://localhost/').signal.aborted).toBe(false);
    controller.abort(new ServerShutdownError());
    expect(copy.signal.reason).toBeInstanceOf(ServerShutdownError);
    expect(copy.signal.reason.name).toBe('AbortError');
  });
});
