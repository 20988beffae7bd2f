import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawResponses, uploadWhileReading, type ParsedExchange } from '../../../test/kit/raw-http.js';
import { PRODUCTION_LEAKS } from './support/leaks.js';
import { startHostProcess, type HostProcess } from './support/start-host.js';

/**
 * The example host as deployed (a child process, production mode and debug mode) against what
 * a well-behaved client never sends, over raw sockets: every answer must be a complete HTTP
 * response with the right status (or a clean close where Node's parser gives up), never a hang,
 * a crash or a leak, and no client mistake may write a line at ERROR or above.
 */

/** Cases the adapter or Node's parser answers before any kernel: nothing is logged at ERROR or above. */
const PROTOCOL_CASES: Array<{ name: string; request: string; status: number }> = [
  { name: 'request line naming HTTP/2.0', request: 'GET /health HTTP/2.0\r\nHost: localhost\r\n\r\n', status: 505 },
  { name: 'request line naming HTTP/0.9', request: 'GET /health HTTP/0.9\r\nHost: localhost\r\n\r\n', status: 505 },
  { name: 'HTTP/2 preface on the HTTP/1 port', request: 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', status: 400 },
  { name: 'two Host headers', request: 'GET /health HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\n\r\n', status: 400 },
  { name: 'no Host header on HTTP/1.1', request: 'GET /health HTTP/1.1\r\n\r\n', status: 400 },
  { name: 'a Host that is no host', request: 'GET /health HTTP/1.1\r\nHost: a b@evil\r\n\r\n', status: 400 },
  { name: 'CONNECT', request: 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', status: 501 },
  { name: 'the asterisk with GET', request: 'GET * HTTP/1.1\r\nHost: localhost\r\n\r\n', status: 400 },
  { name: 'an absolute-form target of another scheme', request: 'GET ftp://other/health HTTP/1.1\r\nHost: localhost\r\n\r\n', status: 400 },
  // Request smuggling: each body carries a second request that must never be answered.
  {
    name: 'Content-Length with Transfer-Encoding',
    request:
      'POST /api/token HTTP/1.1\r\nHost: localhost\r\nContent-Length: 40\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /health HTTP/1.1\r\nHost: localhost\r\n\r\n',
    status: 400,
  },
  {
    name: 'two differing Content-Lengths',
    request:
      'POST /api/token HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\nContent-Length: 40\r\n\r\n{}GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n',
    status: 400,
  },
  {
    name: 'Transfer-Encoding with a space before the colon',
    request:
      'POST /api/token HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding : chunked\r\n\r\n0\r\n\r\nGET /health HTTP/1.1\r\nHost: localhost\r\n\r\n',
    status: 400,
  },
  {
    name: 'Transfer-Encoding not ending in chunked',
    request:
      'POST /api/token HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked, identity\r\n\r\n0\r\n\r\nGET /health HTTP/1.1\r\nHost: localhost\r\n\r\n',
    status: 400,
  },
  {
    name: 'an unknown transfer coding',
    request:
      'POST /api/token HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: xchunked\r\n\r\n0\r\n\r\nGET /health HTTP/1.1\r\nHost: localhost\r\n\r\n',
    status: 501,
  },
  {
    name: 'Transfer-Encoding on HTTP/1.0',
    request:
      'POST /api/token HTTP/1.0\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /health HTTP/1.1\r\nHost: localhost\r\n\r\n',
    status: 400,
  },
  { name: 'NUL in a header value', request: 'GET /health HTTP/1.1\r\nHost: localhost\r\nX-Note: a\x00b\r\n\r\n', status: 400 },
  { name: 'a bare CR in a header value', request: 'GET /health HTTP/1.1\r\nHost: localhost\r\nX-Note: a\rb\r\n\r\n', status: 400 },
  { name: 'NUL in the path', request: 'GET /he\x00alth HTTP/1.1\r\nHost: localhost\r\n\r\n', status: 400 },
  {
    name: 'headers over the size limit',
    request: `GET /health HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    status: 431,
  },
];

/**
 * Bodies whose framing breaks after the kernel got the request: Node's parser answers 400 and
 * closes, and the kernel's failed body read is a client error, logged at ERROR like every 4xx (docs/errors.md).
 */
const BROKEN_BODY_CASES: Array<{ name: string; request: string; status: number }> = [
  {
    name: 'a chunk size that is no number',
    request: 'POST /api/token HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
    status: 400,
  },
  {
    name: 'a chunk size past 64 bits',
    request: 'POST /api/token HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffffff\r\n{}\r\n0\r\n\r\n',
    status: 400,
  },
  {
    name: 'a negative chunk size',
    request: 'POST /api/token HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n-2\r\n{}\r\n0\r\n\r\n',
    status: 400,
  },
];

/** Cases answered like any request (`OPTIONS *` by the adapter, the others by the application), connection kept. */
const KERNEL_CASES: Array<{ name: string; request: string; status: number }> = [
  { name: 'OPTIONS *', request: 'OPTIONS * HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n', status: 204 },
  {
    name: 'an absolute-form target',
    request: 'GET http://other.example/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
    status: 200,
  },
  {
    name: 'overlong UTF-8 in a header value',
    request: 'GET /health HTTP/1.1\r\nHost: localhost\r\nX-Note: \xc0\xaf\xe0\x80\xaf\r\nConnection: close\r\n\r\n',
    status: 200,
  },
  {
    name: 'overlong UTF-8 in the path',
    request: 'GET /\xc0\xae\xc0\xae/\xc0\xafetc HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
    status: 400,
  },
  {
    name: 'percent-encoded overlong UTF-8 in the path',
    request: 'GET /%C0%AE%C0%AE/%C0%AFetc HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
    status: 400,
  },
  {
    name: 'an upgrade nobody offers',
    request: 'GET /health HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade, close\r\n\r\n',
    status: 200,
  },
];

/** `[time] channel.LEVEL: message` lines at ERROR or above. */
function seriousLines(log: string): string[] {
  return log.split('\n').filter((line) => /^\[[^\]]+\] [\w.-]+\.(ERROR|CRITICAL|ALERT|EMERGENCY): /.test(line));
}

describe.each([
  { mode: 'production', debug: '0' },
  { mode: 'debug', debug: '1' },
])('hostile input, $mode mode', ({ mode, debug }) => {
  let host: HostProcess;
  let port: number;

  beforeAll(async () => {
    host = await startHostProcess({ APP_DEBUG: debug, API_HOST_CONFIG: '' });
    port = Number(new URL(await host.url).port);
  }, 60_000);
  afterAll(async () => {
    host.child.kill('SIGTERM');
    await host.exited;
  });

  /** Every request answered so far reached the log: the log line of one more request is there. */
  async function logSettled(): Promise<string> {
    const count = (): number => host.log().split('Matched route "health"').length;
    const before = count();
    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
    await expect.poll(count, { timeout: 10_000, interval: 20 }).toBeGreaterThan(before);
    return host.log();
  }

  function expectOneCleanAnswer(exchange: ParsedExchange, status: number): void {
    expect(exchange.responses.map((r) => r.status)).toEqual([status]);
    expect(exchange.rest).toBe('');
    if (mode === 'production') {
      const answer = exchange.responses[0]!;
      for (const leak of PRODUCTION_LEAKS) expect(`${JSON.stringify(answer.headers)}\n${answer.body}`).not.toMatch(leak);
    }
  }

  it.each(PROTOCOL_CASES)('answers $name with $status and closes', async ({ request, status }) => {
    const exchange = await rawResponses(port, request, { waitMs: 10_000 });
    expectOneCleanAnswer(exchange, status);
    expect(exchange.closedByServer).toBe(true);
  });

  it('logged nothing at ERROR or above for those protocol mistakes, and kept running', async () => {
    expect(seriousLines(await logSettled())).toEqual([]);
    expect(host.child.exitCode).toBeNull();
  });

  it.each(BROKEN_BODY_CASES)('answers $name with $status and closes', async ({ request, status }) => {
    const exchange = await rawResponses(port, request, { waitMs: 10_000 });
    expectOneCleanAnswer(exchange, status);
    expect(exchange.closedByServer).toBe(true);
  });

  it.each(KERNEL_CASES)('answers $name with $status', async ({ request, status }) => {
    expectOneCleanAnswer(await rawResponses(port, request, { waitMs: 10_000 }), status);
  });

  it('lets the client read an early 401 or 413 while the body is still arriving', async () => {
    // Without a bounded drain before closing, most of these end in a reset the client reads instead of the answer.
    const uploads = [
      ['/api/token', 413],
      ['/api/items', 401],
      ['/api/token', 413],
      ['/api/items', 401],
    ] as const;
    const answers = await Promise.all(
      uploads.map(([path]) => uploadWhileReading(port, path, { length: 20_000_000, headers: 'Content-Type: application/json\r\n' })),
    );
    expect(answers.map((answer) => Number(/^HTTP\/1\.1 (\d{3}) /.exec(answer)?.[1]))).toEqual(uploads.map(([, status]) => status));
  });

  it('logged client mistakes that reached the kernel as every 4xx is logged (request.ERROR), and nothing at CRITICAL', async () => {
    const lines = seriousLines(await logSettled());
    expect(lines.filter((line) => !/\] request\.ERROR: Uncaught Error \w*HttpError: /.test(line))).toEqual([]);
  });
});
