import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientGoneError, MemoryLogger, Response, ServerShutdownError, type Request } from '@switchboard/http-kernel';
import { EventStreamResponse } from '@switchboard/http-kernel/sse';
import { createFetchHandler } from '../src/index.js';
import { handlerRoutes, startTestServer, type TestServer } from '../../../test/kit/index.js';
import { EventFeed, occurrences, StreamReader } from '../../../test/kit/services/event-feed.js';

/** Settled from outside: what a request did, for the test to await. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

const feed = new EventFeed();
const logger = new MemoryLogger();
let waitingEntered = deferred<void>();
let waitingAborted = deferred<unknown>();

function eventStream(request: Request): EventStreamResponse {
  return new EventStreamResponse(request, ({ lastEventId, signal }) => feed.follow(lastEventId, signal), {
    heartbeatIntervalMs: Number(request.query.get('heartbeat') ?? 0),
  });
}

/** Waits for its signal, as a controller passing it to a slow query does. */
async function waitForSignal(request: Request): Promise<Response> {
  waitingEntered.resolve();
  const signal = request.signal;
  await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
  waitingAborted.resolve(signal.reason);
  return new Response('too late');
}

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    routes: handlerRoutes({ 'GET /events': eventStream, 'GET /waits': waitForSignal, 'GET /quick': () => new Response('done') }),
    // Far longer than any test: a shutdown that waited for the grace period would time the test out.
    serve: { logger, shutdownGracePeriod: 60_000, shutdownTimeout: 120_000 },
  });
});
afterAll(() => server.close());

async function open(path: string, headers: Record<string, string> = {}): Promise<{ reader: StreamReader; response: globalThis.Response }> {
  const response = await fetch(server.origin + path, { headers });
  return { reader: new StreamReader(response.body!), response };
}

describe('request.signal under the node adapter', () => {
  it('fires with ClientGoneError when the client leaves before the response finished', async () => {
    waitingEntered = deferred();
    waitingAborted = deferred();
    const client = new AbortController();
    const answer = fetch(`${server.origin}/waits`, { signal: client.signal }).catch(() => 'aborted');
    await waitingEntered.promise;
    client.abort();
    expect(await answer).toBe('aborted');
    const reason = await waitingAborted.promise;
    expect(reason).toBeInstanceOf(ClientGoneError);
    expect((reason as Error).name).toBe('AbortError');
  });
});

describe('EventStreamResponse over a real server', () => {
  it('sends the event-stream headers and heartbeat comments while no event comes', async () => {
    const { reader, response } = await open('/events?heartbeat=5');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('cache-control')).toBe('no-cache, private');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    // The opening comment, then at least two heartbeats.
    await reader.until((text) => occurrences(text, ':\n\n') >= 3);
    expect(reader.text).not.toContain('data:');
    const stoppedBefore = feed.stopped;
    await reader.cancel();
    await feed.stoppedAtLeast(stoppedBefore + 1);
  });

  it('resumes after the Last-Event-ID, sends new events as they come, and stops the source when the client leaves', async () => {
    feed.publish('one');
    feed.publish('two\nlines');
    feed.publish('three');
    const { reader } = await open('/events', { 'last-event-id': '1' });
    await reader.until((text) => text.includes('data: three\n\n'));
    expect(reader.text).toBe(':\n\nid: 2\nevent: note\ndata: two\ndata: lines\n\nid: 3\nevent: note\ndata: three\n\n');
    feed.publish('four');
    await reader.until((text) => text.includes('id: 4\n'));
    const stoppedBefore = feed.stopped;
    await reader.cancel();
    // The generator's finally ran: the adapter noticed the client leave while the source waited.
    await feed.stoppedAtLeast(stoppedBefore + 1);
  });

  it('serves the same stream through the fetch handler, and a cancelled body stops the source', async () => {
    const handler = createFetchHandler(server.kernel);
    const response = await handler(new globalThis.Request('http://localhost/events', { headers: { 'last-event-id': '3' } }));
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = new StreamReader(response.body!);
    await reader.until((text) => text.includes('data: four\n\n'));
    expect(reader.text).toBe(':\n\nid: 4\nevent: note\ndata: four\n\n');
    const stoppedBefore = feed.stopped;
    await reader.cancel();
    await feed.stoppedAtLeast(stoppedBefore + 1);
  });

  it('hands the incoming request’s signal on through the fetch handler', async () => {
    waitingEntered = deferred();
    waitingAborted = deferred();
    const handler = createFetchHandler(server.kernel);
    const client = new AbortController();
    void handler(new globalThis.Request('http://localhost/waits', { signal: client.signal }));
    await waitingEntered.promise;
    client.abort(new Error('client left'));
    expect(await waitingAborted.promise).toEqual(new Error('client left'));
  });

  it('at shutdown, ends an open stream with a retry hint at once instead of holding the server for the grace period', async () => {
    const { reader } = await open('/events');
    await reader.until((text) => text.startsWith(':\n\n'));
    const stoppedBefore = feed.stopped;
    const closing = server.close();
    expect(await reader.rest()).toBe(':\n\nretry: 1000\n\n');
    await closing;
    await feed.stoppedAtLeast(stoppedBefore + 1);
    expect(logger.records.filter((record) => record.level !== 'INFO' && record.level !== 'DEBUG')).toEqual([]);
    expect(logger.records.map((record) => record.message)).toContain('1 event stream(s) told to reconnect and closed.');
  });
});

describe('the reasons', () => {
  it('are abort errors that tell the client leaving from the server stopping', () => {
    expect(new ServerShutdownError()).not.toBeInstanceOf(ClientGoneError);
    expect(new ServerShutdownError().name).toBe('AbortError');
  });
});
