import { describe, expect, it } from 'vitest';
import { type HttpError, Request } from '../src/index.js';
import { EventStreamCaps, EventStreamResponse } from '../src/sse.js';

/** A stream that runs until its request's signal fires; `stop` ends it as a leaving client does. */
function stream(): { start: () => EventStreamResponse; stop: () => Promise<unknown> } {
  const controller = new AbortController();
  let response!: EventStreamResponse;
  const start = (): EventStreamResponse => {
    response = new EventStreamResponse(
      Request.fromUrl('http://localhost/events', { signal: controller.signal }),
      async function* ({ signal }) {
        await new Promise((resolve) => signal.addEventListener('abort', resolve));
      },
    );
    // Pulled as a writer would, so that the stream runs and notices the signal.
    void (async () => {
      for await (const _ of response.body as AsyncIterable<string>);
    })();
    return response;
  };
  return { start, stop: () => (controller.abort(), response.finished) };
}

function refusal(open: () => unknown): HttpError {
  try {
    open();
  } catch (error) {
    return error as HttpError;
  }
  throw new Error('The stream was not refused.');
}

describe('EventStreamCaps', () => {
  it('refuses a key past perKey with 429 and everyone past total with 503, both with Retry-After', () => {
    const caps = new EventStreamCaps({ perKey: 2, total: 3, retryAfter: 7 });
    caps.open('ada', stream().start);
    caps.open('ada', stream().start);
    const perKey = refusal(() => caps.open('ada', stream().start));
    expect(perKey.status).toBe(429);
    expect(perKey.headers).toEqual({ 'retry-after': '7' });
    caps.open('bob', stream().start);
    expect(caps.openStreams).toBe(3);
    const total = refusal(() => caps.open('cy', stream().start));
    expect(total.status).toBe(503);
    expect(total.headers).toEqual({ 'retry-after': '7' });
  });

  it('counts a stream until it finishes, then takes the next', async () => {
    const caps = new EventStreamCaps({ perKey: 1, total: 1 });
    const first = stream();
    caps.open('ada', first.start);
    expect(refusal(() => caps.open('ada', stream().start)).status).toBe(429);
    await first.stop();
    await Promise.resolve();
    expect(caps.openStreams).toBe(0);
    expect(caps.open('ada', stream().start)).toBeInstanceOf(EventStreamResponse);
  });

  it('refuses limits that are not whole numbers of at least 1', () => {
    expect(() => new EventStreamCaps({ perKey: 0 })).toThrow(RangeError);
    expect(() => new EventStreamCaps({ total: 1.5 })).toThrow(RangeError);
  });
});
