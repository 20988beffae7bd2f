/**
 * The per-client and per-route limiters in a kernel wired as a host wires it (real router, real
 * error listener), served by the node adapter on 127.0.0.1 and called over HTTP.
 */
import {
  defineController,
  JsonResponse,
  RequestType,
  Response,
  type ControllerArgumentsEvent,
  type EventSubscriber,
  type KernelEventMap,
  type SubscribedEvents,
} from '@switchboard/http-kernel';
import { afterEach, describe, expect, it } from 'vitest';
import { startHostServer, type TestServer } from '../../../test/kit/host-kernel.js';
import {
  ClientRateLimitListener,
  defineRateLimit,
  MemoryStore,
  RateLimiter,
  rateLimitOf,
  RouteRateLimitListener,
  type RouteRateLimitDeclaration,
} from '../src/index.js';

class TestClock {
  now = 1_700_000_000_000;
  readonly read = (): number => this.now;
}

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const JSON_ACCEPT = { accept: 'application/json' };

function clientLimiter(limit: number, clock: TestClock): RateLimiter {
  return new RateLimiter({
    id: 'per-client',
    policy: 'fixed_window',
    limit,
    intervalMs: 60_000,
    store: new MemoryStore(),
    clock: clock.read,
  });
}

describe('ClientRateLimitListener', () => {
  it('refuses past the limit with a 429 problem document, Retry-After and the RateLimit fields; the controller never runs', async () => {
    const clock = new TestClock();
    let calls = 0;
    server = await startHostServer(
      { 'GET /hello': defineController([], () => (calls++, new Response('hello')), 'hello') },
      { subscribers: [new ClientRateLimitListener({ limiter: clientLimiter(2, clock) })] },
    );
    const allowed = [await server.fetch('/hello', { headers: JSON_ACCEPT }), await server.fetch('/hello', { headers: JSON_ACCEPT })];
    expect(allowed.map((answer) => answer.status)).toEqual([200, 200]);
    expect(allowed[0]!.headers.get('ratelimit-policy')).toBe('"per-client";q=2;w=60');
    expect(allowed.map((answer) => answer.headers.get('ratelimit'))).toEqual(['"per-client";r=1;t=60', '"per-client";r=0;t=60']);
    expect(allowed[0]!.headers.get('retry-after')).toBeNull();

    clock.now += 15_000;
    const refused = await server.fetch('/hello', { headers: JSON_ACCEPT });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    expect(JSON.parse(refused.body)).toMatchObject({ status: 429, title: 'Too Many Requests' });
    expect(refused.headers.get('retry-after')).toBe('45');
    expect(refused.headers.get('ratelimit')).toBe('"per-client";r=0;t=45');
    expect(refused.headers.get('ratelimit-policy')).toBe('"per-client";q=2;w=60');
    expect(calls).toBe(2);
    // Unknown paths are limited too: the limiter runs before routing.
    expect((await server.fetch('/nowhere', { headers: JSON_ACCEPT })).status).toBe(429);
  });

  it('in debug mode the refusal is the usual debug page, with the same fields', async () => {
    const clock = new TestClock();
    server = await startHostServer(
      { 'GET /hello': defineController([], () => new Response('hello'), 'hello') },
      { debug: true, subscribers: [new ClientRateLimitListener({ limiter: clientLimiter(1, clock) })] },
    );
    await server.fetch('/hello');
    const refused = await server.fetch('/hello', { headers: { accept: 'text/html' } });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/^text\/html/);
    expect(refused.body).toContain('TooManyRequestsHttpError');
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(refused.headers.get('ratelimit')).toBe('"per-client";r=0;t=60');
  });

  it('leaves CORS preflights and the profiler pages alone unless configured', async () => {
    const clock = new TestClock();
    const routes = {
      'OPTIONS /hello': defineController([], () => new Response(null, 204), 'preflight'),
      'GET /_profiler/latest': defineController([], () => new Response('profile'), 'profile'),
      'GET /_profilerish': defineController([], () => new Response('not the profiler'), 'lookalike'),
    };
    server = await startHostServer(routes, { subscribers: [new ClientRateLimitListener({ limiter: clientLimiter(1, clock) })] });
    const preflight = { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' } };
    for (let index = 0; index < 3; index++) {
      expect((await server.fetch('/hello', preflight)).status).toBe(204);
      expect((await server.fetch('/_profiler/latest')).status).toBe(200);
    }
    expect((await server.fetch('/_profilerish')).status).toBe(200);
    expect((await server.fetch('/_profilerish', { headers: JSON_ACCEPT })).status).toBe(429);
    await server.close();

    server = await startHostServer(routes, {
      subscribers: [new ClientRateLimitListener({ limiter: clientLimiter(1, clock), exemptPaths: [], exemptPreflights: false })],
    });
    expect((await server.fetch('/hello', preflight)).status).toBe(204);
    expect((await server.fetch('/_profiler/latest')).status).toBe(429);
  });

  it('counts by the address the adapter resolved: X-Forwarded-For counts only from a trusted proxy', async () => {
    const clock = new TestClock();
    const routes = { 'GET /hello': defineController([], () => new Response('hello'), 'hello') };
    const forwardedFor = (address: string) => ({ headers: { ...JSON_ACCEPT, 'x-forwarded-for': address } });
    server = await startHostServer(routes, { subscribers: [new ClientRateLimitListener({ limiter: clientLimiter(1, clock) })] });
    expect((await server.fetch('/hello', forwardedFor('203.0.113.1'))).status).toBe(200);
    // An untrusted peer's header changes nothing: still 127.0.0.1, already at its limit.
    expect((await server.fetch('/hello', forwardedFor('203.0.113.2'))).status).toBe(429);
    await server.close();

    server = await startHostServer(routes, {
      subscribers: [new ClientRateLimitListener({ limiter: clientLimiter(1, clock) })],
      serve: { trustedProxies: ['loopback'] },
    });
    expect((await server.fetch('/hello', forwardedFor('203.0.113.1'))).status).toBe(200);
    expect((await server.fetch('/hello', forwardedFor('203.0.113.1'))).status).toBe(429);
    expect((await server.fetch('/hello', forwardedFor('203.0.113.2'))).status).toBe(200);
  });

  it('counts an IPv6 client by its /64: a fresh address of the same network is refused', async () => {
    const clock = new TestClock();
    const routes = { 'GET /hello': defineController([], () => new Response('hello'), 'hello') };
    const statusFrom = async (address: string) =>
      (await server!.fetch('/hello', { headers: { ...JSON_ACCEPT, 'x-forwarded-for': address } })).status;
    server = await startHostServer(routes, {
      subscribers: [new ClientRateLimitListener({ limiter: clientLimiter(1, clock) })],
      serve: { trustedProxies: ['loopback'] },
    });
    expect(await statusFrom('2001:db8:5:1::1')).toBe(200);
    expect(await statusFrom('2001:db8:5:1:ffff::2')).toBe(429);
    expect(await statusFrom('2001:db8:5:2::1')).toBe(200);
    // Another IPv4 spelling of one client is the same client.
    expect(await statusFrom('203.0.113.5')).toBe(200);
    expect(await statusFrom('::ffff:cb00:7105')).toBe(429);
    await server.close();

    server = await startHostServer(routes, {
      subscribers: [new ClientRateLimitListener({ limiter: clientLimiter(1, clock), ipv6Prefix: 128 })],
      serve: { trustedProxies: ['loopback'] },
    });
    expect(await statusFrom('2001:db8:5:1::1')).toBe(200);
    expect(await statusFrom('2001:db8:5:1::2')).toBe(200);
    expect(await statusFrom('2001:db8:5:1::2')).toBe(429);
  });
});

/** Stands for the payload step (kernel.controller_arguments 0): records whether a request got that far. */
class BodyReaderProbe implements EventSubscriber<KernelEventMap> {
  static readonly PRIORITY = 0;
  reached = 0;
  getSubscribedEvents(): SubscribedEvents<KernelEventMap> {
    return { 'kernel.controller_arguments': [this.onControllerArguments, BodyReaderProbe.PRIORITY] };
  }
  onControllerArguments(event: ControllerArgumentsEvent): void {
    // The error page's sub-request has arguments resolved too; only the limited request counts.
    if (event.requestType === RequestType.MAIN) this.reached++;
  }
}

describe('RouteRateLimitListener (`_rate_limit`)', () => {
  const perUser = defineRateLimit({ policy: 'token_bucket', limit: 2, intervalMs: 60_000, by: 'user' });

  async function startWith(
    declaration: RouteRateLimitDeclaration,
    clock: TestClock,
    probe = new BodyReaderProbe(),
    serve: { trustedProxies?: string[] } = {},
  ): Promise<TestServer> {
    return await startHostServer(
      {
        'POST /search': {
          name: 'search',
          controller: defineController([], () => new JsonResponse({ found: [] }), 'search'),
          defaults: { _rate_limit: declaration },
        },
        'GET /free': defineController([], () => new Response('free'), 'free'),
      },
      {
        subscribers: [
          // The test's "authentication": the user named by a header.
          new RouteRateLimitListener({
            store: new MemoryStore(),
            clock: clock.read,
            userOf: (request) => request.headers.get('x-user') ?? null,
          }),
          probe,
        ],
        serve,
      },
    );
  }

  it('counts per user, answers 429 before the body is read, and leaves other routes unlimited', async () => {
    const clock = new TestClock();
    const probe = new BodyReaderProbe();
    server = await startWith(perUser, clock, probe);
    const post = (user: string) =>
      server!.fetch('/search', { method: 'POST', body: '{"q":"x"}', headers: { ...JSON_ACCEPT, 'x-user': user } });
    expect((await post('alice')).status).toBe(200);
    const second = await post('alice');
    expect(second.status).toBe(200);
    expect(second.headers.get('ratelimit-policy')).toBe('"search";q=2;w=60');
    expect(second.headers.get('ratelimit')).toBe('"search";r=0;t=60');
    const refused = await post('alice');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(probe.reached).toBe(2);
    expect((await post('bob')).status).toBe(200);
    const free = await server.fetch('/free');
    expect(free.status).toBe(200);
    expect(free.headers.get('ratelimit')).toBeNull();
  });

  it('a list of limits is checked as one compound limit; anonymous requests count by address', async () => {
    const clock = new TestClock();
    server = await startWith(
      [
        { policy: 'fixed_window', limit: 3, intervalMs: 1_000, id: 'search-burst' },
        { policy: 'sliding_window', limit: 100, intervalMs: 3_600_000, id: 'search-hourly' },
      ],
      clock,
    );
    const answers = [];
    for (let index = 0; index < 4; index++)
      answers.push(await server.fetch('/search', { method: 'POST', body: '{}', headers: JSON_ACCEPT }));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429]);
    expect(answers[0]!.headers.get('ratelimit-policy')).toBe('"search-burst";q=3;w=1, "search-hourly";q=100;w=3600');
    expect(answers[3]!.headers.get('ratelimit')).toMatch(/^"search-burst";r=0;t=1, "search-hourly";r=\d+;t=\d+$/);
  });

  it('an anonymous request from IPv6 counts by its /64', async () => {
    const clock = new TestClock();
    server = await startWith({ policy: 'fixed_window', limit: 1, intervalMs: 60_000 }, clock, new BodyReaderProbe(), {
      trustedProxies: ['loopback'],
    });
    const post = async (address: string) =>
      (await server!.fetch('/search', { method: 'POST', body: '{}', headers: { ...JSON_ACCEPT, 'x-forwarded-for': address } })).status;
    expect(await post('2001:db8:9:1::1')).toBe(200);
    expect(await post('2001:db8:9:1::2')).toBe(429);
    expect(await post('2001:db8:9:2::1')).toBe(200);
  });

  it('rateLimitOf reads a route declaration for tools that describe routes', () => {
    expect(rateLimitOf({ defaults: { _rate_limit: perUser } })).toEqual([perUser]);
    expect(rateLimitOf({ defaults: {} })).toBeNull();
  });

  it('a misspelt declaration fails when it is defined', () => {
    expect(() => defineRateLimit({ policy: 'fixed_window', limit: 1, intervalMs: 1, per: 'user' } as never)).toThrow(
      /Unknown _rate_limit option "per"/,
    );
    expect(() => defineRateLimit({ policy: 'fixed_window', limit: 1, intervalMs: 1, by: 'tenant' } as never)).toThrow(/"by" must be/);
  });
});
