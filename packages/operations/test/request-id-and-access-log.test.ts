/**
 * Request ids, `request.logger` and the access line in a kernel wired as a host wires it (real
 * router, real error listener), served by the node adapter on 127.0.0.1 and called over HTTP.
 */
import { defineController, JsonResponse, MemoryLogger, type LogRecord, type Request } from '@switchboard/http-kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHostServer, type TestServer } from '../../../test/kit/host-kernel.js';
import { millisecondsText } from '../src/access-log/milliseconds-text.js';
import { AccessLogListener, generateRequestId, isSafeRequestId, RequestIdListener } from '../src/index.js';

const GENERATED = /^[0-9a-f]{12}-[0-9a-z]{8}$/;
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLXNpZ25hdHVyZQ';

const routes = {
  'GET /hello': defineController(['request'], (request: Request) => {
    request.logger.info({ greeted: 'world' }, 'Said hello.');
    return new JsonResponse({ hello: 'world' });
  }),
  'GET /fail': defineController([], () => {
    throw new Error('database password is hunter2');
  }),
};

/** One server per trust setting; each records its log and resolves a waiter per `kernel.terminate`. */
interface Served {
  readonly server: TestServer;
  readonly records: LogRecord[];
  terminated(): Promise<void>;
}

async function served(options: { trustLoopback: boolean; debug?: boolean; successSampleRate?: number }): Promise<Served> {
  const records: LogRecord[] = [];
  const logger = new MemoryLogger(records);
  let waiters: Array<() => void> = [];
  const server = await startHostServer(routes, {
    logger,
    debug: options.debug ?? false,
    subscribers: [
      new RequestIdListener({ logger }),
      new AccessLogListener({
        logger,
        ...(options.successSampleRate === undefined ? {} : { successSampleRate: options.successSampleRate }),
      }),
    ],
    setup: (dispatcher) =>
      dispatcher.on(
        'kernel.terminate',
        () => {
          for (const resolve of waiters) resolve();
          waiters = [];
        },
        -100,
      ),
    serve: { trustedProxies: options.trustLoopback ? ['loopback'] : [] },
  });
  return { server, records, terminated: () => new Promise<void>((resolve) => waiters.push(resolve)) };
}

let trusting: Served;
let direct: Served;
beforeAll(async () => {
  [trusting, direct] = await Promise.all([served({ trustLoopback: true }), served({ trustLoopback: false, successSampleRate: 0 })]);
});
afterAll(async () => {
  await Promise.all([trusting.server.close(), direct.server.close()]);
});

const accessLines = (records: LogRecord[]): LogRecord[] => records.filter((record) => record.channel === 'access');

describe('RequestIdListener', () => {
  it('gives a request from a client a new id, echoed in X-Request-Id, and ignores the one it sent', async () => {
    const first = await direct.server.fetch('/hello', { headers: { 'x-request-id': 'chosen-by-client' } });
    const second = await direct.server.fetch('/hello');
    const id = first.headers.get('x-request-id')!;
    expect(id).toMatch(GENERATED);
    expect(second.headers.get('x-request-id')).toMatch(GENERATED);
    expect(second.headers.get('x-request-id')).not.toBe(id);
  });

  it('keeps a safe id from a trusted proxy and replaces an unsafe one', async () => {
    const kept = await trusting.server.fetch('/hello', { headers: { 'x-request-id': 'lb-01:7f3a.9_x' } });
    expect(kept.headers.get('x-request-id')).toBe('lb-01:7f3a.9_x');
    for (const unsafe of ['two words', 'a'.repeat(201), 'x"y', 'Root=1-abc']) {
      const replaced = await trusting.server.fetch('/hello', { headers: { 'x-request-id': unsafe } });
      expect(replaced.headers.get('x-request-id'), unsafe).toMatch(GENERATED);
    }
    expect(isSafeRequestId('a'.repeat(200))).toBe(true);
  });

  it('puts the id in every problem document, error sub-request included, and says nothing of the error', async () => {
    for (const path of ['/nope', '/fail']) {
      const response = await trusting.server.fetch(path, {
        headers: { accept: 'application/json', 'x-request-id': `quoted-${path.slice(1)}` },
      });
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      const problem = JSON.parse(response.body) as Record<string, unknown>;
      expect(problem['requestId']).toBe(`quoted-${path.slice(1)}`);
      expect(response.headers.get('x-request-id')).toBe(`quoted-${path.slice(1)}`);
      expect(response.body).not.toContain('hunter2');
    }
  });

  it('binds request.logger to the request id and the matched route', async () => {
    trusting.records.length = 0;
    const response = await trusting.server.fetch('/hello', { headers: { 'x-request-id': 'bound-1' } });
    expect(response.status).toBe(200);
    const said = trusting.records.find((record) => record.message === 'Said hello.')!;
    expect(said.context).toMatchObject({ requestId: 'bound-1', route: 'GET /hello', greeted: 'world' });
    // The built-in listeners write through it too: the error listener's record of a failure.
    await trusting.server.fetch('/fail', { headers: { 'x-request-id': 'bound-2' } });
    const failure = trusting.records.find((record) => record.level === 'CRITICAL')!;
    expect(failure).toMatchObject({ channel: 'request', context: { requestId: 'bound-2', route: 'GET /fail' } });
  });

  it('makes ids of one length that count up in base 36, past every run of 36', () => {
    const ids = Array.from({ length: 80 }, () => generateRequestId());
    const prefix = ids[0]!.slice(0, 13);
    const counters = ids.map((id) => {
      expect(id).toMatch(GENERATED);
      expect(id.slice(0, 13)).toBe(prefix);
      return Number.parseInt(id.slice(13), 36);
    });
    expect(counters).toEqual(counters.map((_, index) => counters[0]! + index));
    expect([...ids].sort()).toEqual(ids);
  });

  it('shows the id on the debug error page', async () => {
    const debug = await served({ trustLoopback: true, debug: true });
    try {
      const page = await debug.server.fetch('/fail', { headers: { accept: 'text/html', 'x-request-id': 'page-7' } });
      expect(page.status).toBe(500);
      expect(page.body).toContain('<tr><th>Request id</th><td>page-7</td></tr>');
    } finally {
      await debug.server.close();
    }
  });
});

describe('AccessLogListener', () => {
  it('writes one line per request after the answer, with credentials in the query string redacted', async () => {
    trusting.records.length = 0;
    const done = trusting.terminated();
    const response = await trusting.server.fetch(`/hello?access_token=${JWT}&q=Bearer%20abcdefghijkl`, {
      headers: { 'x-request-id': 'access-1' },
    });
    await done;
    const [line] = accessLines(trusting.records);
    expect(line!.message).toBe(
      `GET /hello?access_token=[redacted]&q=Bearer%20[redacted] 200 ${line!.context['durationMs']} ms ${Buffer.byteLength(response.body)} B 127.0.0.1 access-1`,
    );
    expect(line!.level).toBe('INFO');
    expect(line!.context).toMatchObject({
      method: 'GET',
      route: 'GET /hello',
      path: '/hello?access_token=[redacted]&q=Bearer%20[redacted]',
      status: 200,
      bytes: Buffer.byteLength(response.body),
      clientIp: '127.0.0.1',
      requestId: 'access-1',
    });
    expect(line!.context['durationMs']).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(trusting.records)).not.toContain(JWT);
  });

  it('hides in the path field, not only in the message, every value named like a secret', async () => {
    trusting.records.length = 0;
    const done = trusting.terminated();
    const query = 'password=hunter2-secret&api_key=key-secret&token=plain-secret&code=oauth-code-secret&status_code=200';
    await trusting.server.fetch(`/hello?${query}`);
    await done;
    const [line] = accessLines(trusting.records);
    expect(line!.context['path']).toBe('/hello?password=[redacted]&api_key=[redacted]&token=[redacted]&code=[redacted]&status_code=200');
    expect(JSON.stringify(line)).not.toMatch(/-secret/);
  });

  it('writes the duration in the message as the number in its context is written', () => {
    for (const micros of [0, 1, 10, 120, 999, 1000, 1001, 1500, 12_340, 999_999, 86_400_000_123, 2 ** 40 + 7]) {
      expect(millisecondsText(micros), String(micros)).toBe(String(micros / 1000));
    }
  });

  it('samples 2xx lines (rate 0: none) and always logs the others', async () => {
    direct.records.length = 0;
    let done = direct.terminated();
    await direct.server.fetch('/hello');
    await done;
    expect(accessLines(direct.records)).toEqual([]);
    done = direct.terminated();
    const missing = await direct.server.fetch('/nope');
    await done;
    const [line] = accessLines(direct.records);
    expect(line!.context).toMatchObject({ status: 404, route: null, requestId: missing.headers.get('x-request-id') });
  });
});
