import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Response, type Request } from '@switchboard/http-kernel';
import { EventStreamResponse, type ServerSentEvent } from '@switchboard/http-kernel/sse';
import { launchChromium } from '../../../test/kit/browser.js';
import { handlerRoutes, startTestServer, type TestServer } from '../../../test/kit/index.js';

const PAGE = `<!doctype html><title>events</title><script>
  window.received = [];
  const source = new EventSource('/events');
  source.addEventListener('count', (event) => window.received.push(event.lastEventId + ':' + event.data));
</script>`;

/** The Last-Event-ID of each connection the browser made (`null` for the first). */
const connections: Array<string | null> = [];

/** The first connection sends two events and ends (the server drops it); later ones carry on from the client's last id. */
async function* counting({ lastEventId, signal }: { lastEventId: string | null; signal: AbortSignal }): AsyncGenerator<ServerSentEvent> {
  connections.push(lastEventId);
  if (lastEventId === null) {
    // A short reconnection delay keeps the test quick.
    yield { id: '1', event: 'count', retry: 50, data: 'one' };
    yield { id: '2', event: 'count', data: 'two' };
    return;
  }
  const after = Number(lastEventId);
  yield { id: String(after + 1), event: 'count', data: 'next' };
  yield { id: String(after + 2), event: 'count', data: 'and next' };
  await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
}

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startTestServer({
    routes: handlerRoutes({
      'GET /': () => new Response(PAGE, 200, { 'content-type': 'text/html; charset=UTF-8' }),
      'GET /events': (request: Request) => new EventStreamResponse(request, counting),
    }),
  });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe("Chromium's EventSource", () => {
  it('reconnects after the server ends the stream and resumes after its Last-Event-ID', async () => {
    const tab = await browser.newPage();
    await tab.goto(`${server.origin}/`);
    await tab.waitForFunction(() => (globalThis as unknown as { received: string[] }).received.length >= 4, undefined, {
      polling: 50,
    });
    const received = await tab.evaluate(() => (globalThis as unknown as { received: string[] }).received);
    expect(received.slice(0, 4)).toEqual(['1:one', '2:two', '3:next', '4:and next']);
    expect(connections.slice(0, 2)).toEqual([null, '2']);
    await tab.close();
  });
});
