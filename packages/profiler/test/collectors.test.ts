import { describe, expect, it } from 'vitest';
import { defineController, EventStreamResponse, Request, Response, type Logger } from '@switchboard/http-kernel';
import type { EventsData, LoggerData, RequestData, SecurityData, TimeData, RouterData, MemoryData } from '../src/index.js';
import type { PanelContext } from '../src/pages/panels/panel-view.js';
import { securityPanel } from '../src/pages/panels/security-panel.js';
import { profiledKernel } from './support/profiled-kernel.js';

const SECRET = 'correct-horse-battery-staple';

describe('collectors', () => {
  it('events: the failed main request lists kernel.request with the router listener that threw, kernel.exception and the error listener', async () => {
    const app = profiledKernel();
    const response = await app.handle(Request.fromUrl('http://localhost/robots.txt'));
    const main = (await app.profiler.loadProfile(response.headers.get('x-previous-debug-token')!))!;
    const dispatches = main.getCollector<EventsData>('events')!.dispatches;

    const request = dispatches.find((d) => d.event === 'kernel.request' && d.requestType === 'main')!;
    const router = request.called.find((call) => call.name === 'RouterListener.onKernelRequest')!;
    expect(router.threw).toBe(true);
    expect(router.priority).toBe(32);
    expect(request.error).toMatch(/^NotFoundHttpError: No route found for "GET http:\/\/localhost\/robots.txt"/);
    expect(request.called.map((call) => call.name)).toContain('ProfilerLogContextListener.onKernelRequest');

    const exception = dispatches.find((d) => d.event === 'kernel.exception')!;
    expect(exception.requestType).toBe('main');
    const errorListener = exception.called.find((call) => call.name === 'ErrorListener.onKernelException')!;
    expect(errorListener.priority).toBe(-128);
    expect(errorListener.stoppedPropagation).toBe(true);
    expect(exception.called.map((call) => call.name)).toEqual(['ErrorListener.logKernelException', 'ErrorListener.onKernelException']);

    // The sub-request's own events are in the main profile too, marked as such, in start order.
    const order = dispatches.map((d) => `${d.requestType} ${d.event}`);
    expect(order).toEqual([
      'main kernel.request',
      'main kernel.exception',
      'sub kernel.request',
      'sub kernel.controller',
      'sub kernel.controller_arguments',
      'sub kernel.response',
      'sub kernel.finish_request',
      'main kernel.response',
      'main kernel.finish_request',
    ]);
    const subResponse = dispatches.find((d) => d.requestType === 'sub' && d.event === 'kernel.response')!;
    // The listeners declared main-request-only are not called for the sub-request.
    expect(subResponse.called.map((c) => `${c.priority} ${c.name}`)).toEqual([
      '-100 ProfilerTokenListener.onKernelResponse',
      '-128 DebugTokenLinkListener.onKernelResponse',
    ]);
  });

  it('request: an event stream records the events it sent and how it ended', async () => {
    const app = profiledKernel({
      '/events': defineController(
        ['request'],
        (request: Request) =>
          new EventStreamResponse(request, async function* () {
            yield { data: 'one' };
            yield { data: 'two' };
            yield { data: 'three' };
          }),
      ),
    });
    const request = Request.fromUrl('http://localhost/events');
    const response = await app.kernel.handle(request);
    // As an adapter does: the body goes out, then kernel.terminate runs.
    for await (const _chunk of response.body as AsyncIterable<string>);
    await app.kernel.terminate(request, response);
    const profile = (await app.profiler.loadProfile(response.headers.get('x-debug-token')!))!;
    expect(profile.getCollector<RequestData>('request')!.eventStream).toEqual({ eventsSent: 3, ending: 'completed' });
  });

  it('events: listeners skipped because propagation stopped are listed as not called', async () => {
    const app = profiledKernel({ '/ok': () => new Response('ok') });
    app.dispatcher.on('kernel.request', (event) => event.setResponse(new Response('early')), 300, { name: 'EarlyAnswer' });
    const response = await app.handle(Request.fromUrl('http://localhost/ok'));
    const profile = (await app.profiler.loadProfile(response.headers.get('x-debug-token')!))!;
    const request = profile.getCollector<EventsData>('events')!.dispatches.find((d) => d.event === 'kernel.request')!;
    expect(request.called.map((c) => c.name)).toEqual(['ProfilerLogContextListener.onKernelRequest', 'EarlyAnswer']);
    expect(request.called[1]!.stoppedPropagation).toBe(true);
    expect(request.notCalled).toEqual([{ name: 'RouterListener.onKernelRequest', priority: 32 }]);
  });

  it('logger: records with channel and level, filed under the request that logged them, even when requests interleave', async () => {
    let appLogger: Logger | null = null;
    const app = profiledKernel({
      '/work': defineController(['request'], async (request: Request) => {
        const id = request.query.get('id')!;
        appLogger!.child({ channel: 'app' }).info({ id }, `starting ${id}`);
        await new Promise((resolve) => setTimeout(resolve, Number(request.query.get('wait'))));
        appLogger!.child({ channel: 'app' }).warn({ id }, `finished ${id}`);
        return new Response(id);
      }),
    });
    appLogger = app.logger;
    const [slow, fast, missing] = await Promise.all([
      app.handle(Request.fromUrl('http://localhost/work?id=slow&wait=30')),
      app.handle(Request.fromUrl('http://localhost/work?id=fast&wait=1')),
      app.handle(Request.fromUrl('http://localhost/missing')),
    ]);
    const logsOf = async (token: string) =>
      (await app.profiler.loadProfile(token))!
        .getCollector<LoggerData>('logger')!
        .records.map((r) => `${r.level} ${r.channel} ${r.message}`);
    expect(await logsOf(slow.headers.get('x-debug-token')!)).toEqual([
      'INFO request Matched route "/work".',
      'INFO app starting slow',
      'WARNING app finished slow',
    ]);
    expect(await logsOf(fast.headers.get('x-debug-token')!)).toEqual([
      'INFO request Matched route "/work".',
      'INFO app starting fast',
      'WARNING app finished fast',
    ]);
    const main = await logsOf(missing.headers.get('x-previous-debug-token')!);
    expect(main).toHaveLength(1);
    expect(main[0]).toMatch(/^ERROR request Uncaught Error NotFoundHttpError: "No route found for "GET http:\/\/localhost\/missing"" at /);
    // The app's own logger got every record too.
    expect(app.logs.records.map((r) => r.message)).toContain('finished slow');
  });

  it('request: method, URL, route, headers, query, client IP, status, content type — with credentials and secrets redacted', async () => {
    const app = profiledKernel(
      {
        '/hello': defineController(
          ['request'],
          (request: Request) => new Response(`hi ${request.query.get('q')}`, 201, { 'content-type': 'text/plain' }),
        ),
      },
      { secrets: [SECRET] },
    );
    const request = Request.fromUrl(`http://localhost/hello?q=${SECRET}&page=2`, {
      clientIp: '10.1.2.3',
      headers: {
        authorization: 'Bearer eyJhbGciOiJSUzI1NiJ9.payload.signature',
        cookie: 'session=abcdef123456',
        'proxy-authorization': 'Basic dXNlcjpwYXNz',
        'x-note': `my key is ${SECRET}`,
        accept: 'text/plain',
      },
    });
    const response = await app.handle(request);
    const profile = (await app.profiler.loadProfile(response.headers.get('x-debug-token')!))!;
    const data = profile.getCollector<RequestData>('request')!;
    expect(data.method).toBe('GET');
    expect(data.route).toBe('/hello');
    expect(data.clientIp).toBe('10.1.2.3');
    expect(data.statusCode).toBe(201);
    expect(data.contentType).toBe('text/plain');
    expect(data.query).toEqual([
      ['q', '[redacted]'],
      ['page', '2'],
    ]);
    const headers = Object.fromEntries(data.requestHeaders.map(([name, values]) => [name, values.join(',')]));
    expect(headers).toMatchObject({
      authorization: '[redacted]',
      cookie: '[redacted]',
      'proxy-authorization': '[redacted]',
      'x-note': 'my key is [redacted]',
      accept: 'text/plain',
    });
    const responseHeaders = Object.fromEntries(data.responseHeaders.map(([name, values]) => [name, values.join(',')]));
    expect(responseHeaders['x-debug-token']).toBe(profile.token);
    expect(responseHeaders['x-debug-token-link']).toBe(`http://localhost/_profiler/${profile.token}`);
    const stored = JSON.stringify(await app.profiler.storage.read(profile.token));
    for (const secret of [SECRET, 'eyJhbGciOiJSUzI1NiJ9', 'abcdef123456', 'dXNlcjpwYXNz']) expect(stored).not.toContain(secret);
    expect(profile.url).toBe('http://localhost/hello?q=[redacted]&page=2');
  });

  it('router: the matched route and its inputs; none after a failed match', async () => {
    const app = profiledKernel({ '/hello': () => new Response('hi') });
    const ok = await app.handle(Request.fromUrl('http://localhost/hello'));
    const missing = await app.handle(Request.fromUrl('https://localhost/nope'));
    const okRouter = (await app.profiler.loadProfile(ok.headers.get('x-debug-token')!))!.getCollector<RouterData>('router')!;
    expect(okRouter).toMatchObject({ route: '/hello', method: 'GET', path: '/hello', scheme: 'http' });
    const failed = (await app.profiler.loadProfile(missing.headers.get('x-previous-debug-token')!))!.getCollector<RouterData>('router')!;
    expect(failed).toMatchObject({ route: null, path: '/nope', scheme: 'https', presetController: false });
    const sub = (await app.profiler.loadProfile(missing.headers.get('x-debug-token')!))!.getCollector<RouterData>('router')!;
    expect(sub).toMatchObject({ route: null, presetController: true });
  });

  it('time and memory: durations from the trace, process memory', async () => {
    const app = profiledKernel({
      '/hello': async () => {
        await new Promise((r) => setTimeout(r, 15));
        return new Response('hi');
      },
    });
    const response = await app.handle(Request.fromUrl('http://localhost/hello'));
    const profile = (await app.profiler.loadProfile(response.headers.get('x-debug-token')!))!;
    const time = profile.getCollector<TimeData>('time')!;
    expect(time.timeline.map((entry) => entry.event)).toEqual([
      'kernel.request',
      'kernel.controller',
      'kernel.controller_arguments',
      'kernel.response',
      'kernel.finish_request',
    ]);
    // The controller's wait lies between controller_arguments and response.
    const args = time.timeline[2]!;
    const resp = time.timeline[3]!;
    expect(resp.startMs).toBeGreaterThan(args.startMs + args.durationMs);
    expect(time.totalMs).toBeGreaterThanOrEqual(resp.startMs);
    const memory = profile.getCollector<MemoryData>('memory')!;
    expect(memory.heapUsed).toBeGreaterThan(0);
    expect(memory.rss).toBeGreaterThanOrEqual(memory.heapUsed);
  });

  it("security: firewall, user and stateless from the attributes the firewall sets; the sub-request shows its main request's", async () => {
    const app = profiledKernel({
      '/me': () => new Response('me'),
    });
    app.dispatcher.on(
      'kernel.request',
      (event) => {
        if (!event.isMainRequest()) return;
        event.request.attributes.set('_firewall' as string, 'api');
        event.request.attributes.set('_security_user' as string, {
          identifier: 'alice',
          roles: ['ROLE_USER'],
          rawToken: 'secret-jwt-value',
        });
        event.request.attributes.set('_stateless', true);
      },
      8,
      { name: 'FirewallListener.onKernelRequest' },
    );
    const ok = await app.handle(Request.fromUrl('http://localhost/me'));
    const okSecurity = (await app.profiler.loadProfile(ok.headers.get('x-debug-token')!))!.getCollector<SecurityData>('security')!;
    expect(okSecurity).toEqual({
      firewall: 'api',
      user: { identifier: 'alice', roles: ['ROLE_USER'] },
      stateless: true,
      sessionUsages: [],
    });

    const anonymous = profiledKernel();
    const missing = await anonymous.handle(Request.fromUrl('http://localhost/nope'));
    const sub = (await anonymous.profiler.loadProfile(missing.headers.get('x-debug-token')!))!.getCollector<SecurityData>('security')!;
    expect(sub).toEqual({ firewall: null, user: null, stateless: false, sessionUsages: [] });
  });

  it('security: the token an OIDC authenticator looked at (`_security_token`): issuer, kid, key set state, in the panel too', async () => {
    const app = profiledKernel({ '/me': () => new Response('me') });
    const keySet = {
      url: 'https://id.example.test/jwks',
      status: 'stale',
      kids: ['k1'],
      fetches: 3,
      failures: 1,
      lastError: 'The identity provider answered 503.',
    };
    app.dispatcher.on(
      'kernel.request',
      (event) => {
        event.request.attributes.set('_firewall' as string, 'api');
        event.request.attributes.set('_security_token' as string, {
          authenticator: 'oidc',
          issuer: 'https://id.example.test',
          kid: 'k1',
          keySet,
        });
      },
      8,
    );
    const response = await app.handle(Request.fromUrl('http://localhost/me'));
    const security = (await app.profiler.loadProfile(response.headers.get('x-debug-token')!))!.getCollector<SecurityData>('security')!;
    expect(security.token).toEqual({ authenticator: 'oidc', issuer: 'https://id.example.test', kid: 'k1', keySet });
    // The security panel reads nothing of the page context.
    const render = (data: SecurityData) => String(securityPanel.render(data, {} as PanelContext));
    const html = render(security);
    for (const shown of ['Token (issuer, kid, key set)', 'https://id.example.test', 'k1', 'stale', 'The identity provider answered 503.'])
      expect(html).toContain(shown);
    expect(render({ ...security, token: undefined })).not.toContain('Token (issuer');
  });
});
