/**
 * Aborted requests over HTTP/1.1 on a real socket: a client that sends its request and destroys
 * its connection before the response ended is counted in `http_server_aborted_requests_total`
 * (beside its duration), whatever the response was (a stream, or an answer still being computed);
 * a request whose response went out in full is not, even when its client closes right after.
 * The node adapter tells `kernel.terminate` whether the response finished; `MetricsListener` reads
 * it there.
 */
import { connect, type Socket } from 'node:net';
import { defineController, JsonResponse, Response, type Request } from '@switchboard/http-kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHostServer, type TestServer } from '../../../test/kit/host-kernel.js';
import { samples, select, type Sample } from '../../../test/kit/prometheus-exposition.js';
import { MetricsListener, prometheusController, ServerMetrics } from '../src/index.js';

const metrics = new ServerMetrics();

/** Resolved when the slow route's controller has the request (the client may leave from then on). */
let slowArrived: () => void = () => undefined;

/** Resolves once `signal` fires: the adapter fires it when the client goes away. */
const untilAborted = (signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));

let server: TestServer;
beforeAll(async () => {
  server = await startHostServer(
    {
      'GET /hello': defineController([], () => new JsonResponse({ hello: 'world' })),
      // A body sent in parts that ends only when its client has left.
      'GET /download': defineController(
        ['request'],
        (request: Request) =>
          new Response(
            (async function* () {
              yield 'first part\n';
              await untilAborted(request.signal);
            })(),
            200,
            { 'content-type': 'text/plain' },
          ),
      ),
      // An answer computed until its client has left, then written to a closed connection.
      'GET /slow': defineController(['request'], async (request: Request) => {
        slowArrived();
        await untilAborted(request.signal);
        return new JsonResponse({ late: true });
      }),
      'GET /metrics': prometheusController(() => metrics.snapshot()),
    },
    { subscribers: [new MetricsListener(metrics)] },
  );
});
afterAll(async () => {
  await server?.close();
  metrics.close();
});

const DURATION_COUNT = 'http_server_request_duration_seconds_count';
const ABORTED = 'http_server_aborted_requests_total';

async function scrape(): Promise<Sample[]> {
  const answer = await server.fetch('/metrics');
  expect(answer.status).toBe(200);
  return samples(answer.body);
}

/** Scrapes until `route` was recorded `times` (a request is recorded once its connection closed; bounded). */
async function recorded(route: string, times: number): Promise<Sample[]> {
  let all: Sample[] = [];
  for (let attempt = 0; attempt < 200; attempt++) {
    all = await scrape();
    const count = select(all, DURATION_COUNT, { route }).reduce((sum, sample) => sum + sample.value, 0);
    if (count >= times) return all;
  }
  throw new Error(`${route} was not recorded ${times} times: ${select(all, DURATION_COUNT, { route }).length} series`);
}

function abortedCounts(all: readonly Sample[], route: string): string[] {
  return select(all, ABORTED, { route }).map((sample) => `${sample.labels['status']} ${sample.value}`);
}

/** A raw HTTP/1.1 connection to the server with `head` written on it. */
function open(head: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () => {
      socket.write(head);
      resolve(socket);
    });
    socket.on('error', reject);
  });
}

/** Resolves with what was received once `text` is among it. */
function receive(socket: Socket, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let received = '';
    const onData = (chunk: Buffer): void => {
      received += chunk.toString('latin1');
      if (!received.includes(text)) return;
      socket.off('data', onData);
      resolve(received);
    };
    socket.on('data', onData);
    socket.once('close', () => reject(new Error(`closed before "${text}" came: ${received}`)));
  });
}

describe('a client that destroys its connection before the response ended', () => {
  it('is counted as aborted while a streamed body is being sent', async () => {
    const socket = await open('GET /download HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    expect(await receive(socket, 'first part')).toMatch(/^HTTP\/1\.1 200/);
    socket.destroy();
    const all = await recorded('GET /download', 1);
    expect(abortedCounts(all, 'GET /download')).toEqual(['200 1']);
  });

  it('is counted as aborted while its answer was still being computed', async () => {
    const arrived = new Promise<void>((resolve) => (slowArrived = resolve));
    const socket = await open('GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await arrived;
    socket.destroy();
    const all = await recorded('GET /slow', 1);
    // The status is the one the application chose, though it never reached the client.
    expect(abortedCounts(all, 'GET /slow')).toEqual(['200 1']);
  });
});

describe('a response that went out in full', () => {
  it('is not counted as aborted, even when its client closes at once', async () => {
    const socket = await open('GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    expect(await receive(socket, '"hello":"world"')).toMatch(/^HTTP\/1\.1 200/);
    socket.destroy();
    const keptAlive = await server.fetch('/hello');
    expect(keptAlive.status).toBe(200);
    const all = await recorded('GET /hello', 2);
    expect(abortedCounts(all, 'GET /hello')).toEqual([]);
    expect(
      select(all, ABORTED)
        .map((sample) => sample.labels['route'])
        .sort(),
    ).toEqual(['GET /download', 'GET /slow']);
  });
});
