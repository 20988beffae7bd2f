import { describe, expect, it } from 'vitest';
import { routerMatchExplainer } from '@switchboard/profiler';
import { RouteCollection, Router } from '@switchboard/router';
import type { EventsData, ExceptionData, LogRecordData, LoggerData, RouterData } from '@switchboard/profiler/collector';
import { createTestClient, TestResponse } from '../src/index.js';
import { sampleApp, type Inspection } from './support/sample-app.js';

describe('createTestClient: requests', () => {
  it('answers GET /hello in process with status, headers, body, and the kernel request', async () => {
    const client = createTestClient(sampleApp().kernel);
    const response = await client.get('/hello');
    expect(response).toBeInstanceOf(TestResponse);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=UTF-8');
    expect(response.headers.get('content-length')).toBe('5');
    expect(response.text()).toBe('hello');
    expect(response.body).toEqual(new TextEncoder().encode('hello'));
    expect(response.url).toBe('http://localhost/hello');
    expect(response.request?.rawPath).toBe('/hello');
    expect(response.request?.host).toBe('localhost');
  });

  it('sends every method helper with its own verb', async () => {
    const client = createTestClient(sampleApp().kernel);
    const seen: string[] = [];
    for (const send of [client.get, client.post, client.put, client.patch, client.delete, client.options] as const) {
      seen.push((await send.call(client, '/inspect')).json<Inspection>().method);
    }
    expect(seen).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
    const head = await client.head('/hello');
    expect([head.status, head.headers.get('content-length'), head.body.byteLength]).toEqual([200, '5', 0]);
    expect((await client.request('PROPFIND', '/inspect')).json<Inspection>().method).toBe('PROPFIND');
  });

  it('sends headers, query and JSON as a client would', async () => {
    const client = createTestClient(sampleApp().kernel);
    const response = await client.post('/inspect?a=1', {
      headers: { 'X-Trace': 'abc', accept: ['application/json', 'text/plain'] },
      query: { b: 'two words', c: [1, 2], skipped: undefined },
      json: { name: 'desk' },
    });
    const seen = response.json<Inspection>();
    expect(seen.query).toBe('a=1&b=two+words&c=1&c=2');
    expect(seen.headers['x-trace']).toBe('abc');
    expect(seen.headers['accept']).toEqual(['application/json', 'text/plain']);
    expect(seen.headers['content-type']).toBe('application/json');
    expect(seen.headers['content-length']).toBe(String('{"name":"desk"}'.length));
    expect(seen.body).toBe('{"name":"desk"}');
  });

  it('sends the path exactly as written, as on the wire', async () => {
    const client = createTestClient(sampleApp().kernel);
    expect((await client.get('/inspect/../inspect')).status).toBe(404);
    expect((await client.get('/%69nspect')).json<Inspection>().path).toBe('/%69nspect');
    expect((await client.get('inspect')).json<Inspection>().path).toBe('/inspect');
  });

  it('sends string and byte bodies, and FormData as multipart or urlencoded', async () => {
    const client = createTestClient(sampleApp().kernel);
    expect((await client.post('/inspect', { body: 'plain' })).json<Inspection>()).toMatchObject({
      body: 'plain',
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
    });
    const bytes = (await client.post('/inspect', { body: new Uint8Array([104, 105]) })).json<Inspection>();
    expect([bytes.body, bytes.headers['content-type']]).toEqual(['hi', undefined]);

    const form = new FormData();
    form.append('name', 'desk');
    form.append('file', new Blob(['content'], { type: 'text/plain' }), 'a.txt');
    const multipart = (await client.post('/inspect', { body: form })).json<Inspection>();
    expect(multipart.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(multipart.body).toContain('name="file"; filename="a.txt"');
    expect(multipart.body).toContain('content');

    const fields = new FormData();
    fields.append('name', 'a desk');
    fields.append('quantity', '2');
    const urlencoded = (
      await client.post('/inspect', { body: fields, headers: { 'content-type': 'application/x-www-form-urlencoded' } })
    ).json<Inspection>();
    expect(urlencoded.body).toBe('name=a+desk&quantity=2');
    await expect(client.post('/inspect', { body: form, headers: { 'content-type': 'application/x-www-form-urlencoded' } })).rejects.toThrow(
      /is a file/,
    );
    expect((await client.post('/inspect', { body: new URLSearchParams({ q: 'x y' }) })).json<Inspection>()).toMatchObject({
      body: 'q=x+y',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  });

  it('refuses what a node client would refuse to send', async () => {
    const client = createTestClient(sampleApp().kernel);
    await expect(client.get('/hello', { headers: { 'x-bad': 'a\r\nb' } })).rejects.toThrow(/Invalid character/);
    await expect(client.post('/inspect', { json: {}, body: 'x' })).rejects.toThrow(/not both/);
  });

  it('reads a streamed body to its end, and none for HEAD', async () => {
    const client = createTestClient(sampleApp().kernel);
    expect((await client.get('/stream')).text()).toBe('one,two');
    expect((await client.head('/stream')).body.byteLength).toBe(0);
  });

  it('answers OPTIONS * itself, as the adapter does', async () => {
    const response = await createTestClient(sampleApp().kernel).options('*');
    expect([response.status, response.headers.get('cache-control')]).toEqual([204, 'no-store']);
  });

  it('shows a controller failure as the error page the adapter would send', async () => {
    const response = await createTestClient(sampleApp().kernel).get('/boom', { headers: { accept: 'application/json' } });
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.text()).not.toContain('the controller failed');
  });
});

describe('createTestClient: routes by name', () => {
  // Generates with a typed router of its own; the sample app's kernel serves the path.
  const typed = new Router(new RouteCollection().add('item', '/items/:id', { requirements: { id: /\d+/ } }));

  it('requests a route by name: the path is generated from the name and the parameters', async () => {
    const client = createTestClient(sampleApp().kernel);
    const response = await client.route(typed, 'GET', 'item', { id: 7 }, { headers: { accept: 'application/json' } });
    expect(response.status).toBe(200);
    expect(response.url).toBe('http://localhost/items/7');
    expect(response.json()).toEqual({ id: '7' });
  });

  it('refuses at compile time what generate refuses, and throws on it before sending', () => {
    const client = createTestClient(sampleApp().kernel);
    // @ts-expect-error an unknown route name
    expect(() => client.route(typed, 'GET', 'itme', { id: 7 })).toThrow('Unable to generate a URL for the named route "itme"');
    // @ts-expect-error a missing parameter
    expect(() => client.route(typed, 'GET', 'item', {})).toThrow('mandatory parameters are missing ("id")');
  });
});

describe('createTestClient: options', () => {
  it('baseUrl: the scheme and Host requests are addressed with', async () => {
    const client = createTestClient(sampleApp().kernel, { baseUrl: 'https://api.example.com:8443' });
    const seen = (await client.get('/inspect')).json<Inspection>();
    expect([seen.scheme, seen.host, seen.port, seen.headers['host']]).toEqual(['https', 'api.example.com', 8443, 'api.example.com:8443']);
    expect(() => createTestClient(sampleApp().kernel, { baseUrl: 'http://localhost/app' })).toThrow(/origin/);
  });

  it('clientIp: the address requests come from (default 127.0.0.1)', async () => {
    const { kernel } = sampleApp();
    expect((await createTestClient(kernel).get('/inspect')).json<Inspection>().clientIp).toBe('127.0.0.1');
    expect((await createTestClient(kernel, { clientIp: '203.0.113.9' }).get('/inspect')).json<Inspection>().clientIp).toBe('203.0.113.9');
  });

  it('trustedProxies: X-Forwarded-* believed only from a trusted proxy', async () => {
    const { kernel } = sampleApp();
    const forwarded = {
      headers: { 'x-forwarded-for': '198.51.100.7', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'public.example' },
    };
    const trusted = (
      await createTestClient(kernel, { clientIp: '10.0.0.2', trustedProxies: ['10.0.0.0/8'] }).get('/inspect', forwarded)
    ).json<Inspection>();
    expect([trusted.clientIp, trusted.scheme, trusted.host]).toEqual(['198.51.100.7', 'https', 'public.example']);
    const untrusted = (await createTestClient(kernel, { clientIp: '10.0.0.2' }).get('/inspect', forwarded)).json<Inspection>();
    expect([untrusted.clientIp, untrusted.scheme, untrusted.host]).toEqual(['10.0.0.2', 'http', 'localhost']);
  });

  it('bodyLimit: a body past it is refused with 413 when read', async () => {
    const client = createTestClient(sampleApp().kernel, { bodyLimit: 10 });
    expect((await client.post('/inspect', { body: '0123456789' })).status).toBe(200);
    const refused = await client.post('/inspect', { body: '0123456789x', headers: { accept: 'application/json' } });
    expect(refused.status).toBe(413);
    expect(refused.headers.get('connection')).toBe('close');
  });

  it('trustedHosts: a Host outside the allow-list is answered 400 before the kernel', async () => {
    const client = createTestClient(sampleApp().kernel, { trustedHosts: ['localhost', /^api\d\.example$/] });
    expect((await client.get('/hello')).status).toBe(200);
    expect((await client.get('/hello', { headers: { host: 'api2.example' } })).status).toBe(200);
    const refused = await client.get('/hello', { headers: { host: 'evil.example' } });
    expect([refused.status, refused.request]).toEqual([400, null]);
    expect(refused.text()).toMatch(/^400 Bad Request: /);
  });

  it('adapter: the rest of the adapter options (a configured public origin)', async () => {
    const client = createTestClient(sampleApp().kernel, { adapter: { baseUrl: 'https://public.example' } });
    const seen = (await client.get('/inspect', { headers: { host: 'internal:8080' } })).json<Inspection>();
    expect([seen.scheme, seen.host, seen.port]).toEqual(['https', 'public.example', 443]);
  });

  it('Host: an invalid or repeated Host is answered 400 before the kernel, as the adapter answers it', async () => {
    const app = sampleApp();
    const client = createTestClient(app.kernel);
    const bad = await client.get('/hello', { headers: { host: 'bad host' } });
    expect([bad.status, bad.text(), bad.request]).toEqual([400, '400 Bad Request: The Host header is not a valid host.\n', null]);
    const twice = await client.get('/hello', {
      headers: [
        ['host', 'a.example'],
        ['host', 'b.example'],
      ],
    });
    expect(twice.text()).toBe('400 Bad Request: The request has more than one Host header.\n');
    expect(app.terminated).toEqual([]);
  });
});

describe('kernel.terminate and profiles', () => {
  it('runs kernel.terminate after the response; settled() waits for it', async () => {
    const app = sampleApp();
    const client = createTestClient(app.kernel);
    const response = await client.get('/hello');
    expect(app.terminated).toEqual([]);
    await client.settled();
    expect(app.terminated).toEqual([response.request]);
  });

  it('profile: null without the profiler; found on the kernel when registerProfiler wired it', async () => {
    expect((await createTestClient(sampleApp().kernel).get('/hello')).profile).toBeNull();
    const app = sampleApp({ profiler: true });
    const response = await createTestClient(app.kernel).get('/hello');
    expect(response.profile?.token).toBe(response.headers.get('x-debug-token'));
    expect(response.profile?.statusCode).toBe(200);
    await expect(createTestClient(app.kernel, { profiler: null }).get('/hello')).resolves.toHaveProperty('profile', null);
  });

  it('profile: the events, router and logger collectors of the request', async () => {
    const app = sampleApp({ profiler: true });
    const client = createTestClient(app.kernel, { profiler: app.profiler });
    const response = await client.get('/items/abc');
    expect(response.status).toBe(404);
    // The main request's profile, though the error page's sub-request wrote the response.
    const profile = response.profile!;
    expect([profile.parentToken, profile.url, profile.children.length]).toEqual([null, 'http://localhost/items/abc', 1]);
    expect(response.headers.get('x-previous-debug-token')).toBe(profile.token);
    const routing = profile.getCollector<RouterData>('router')!;
    expect(routing).toMatchObject({ route: null, path: '/items/abc', presetController: false });
    const why = routerMatchExplainer(app.router)(routing).find((entry) => entry.name === 'item');
    expect(why).toEqual({ name: 'item', path: '/items/:id', level: 'almost', reason: 'Requirement for "id" does not match (\\d+).' });
    expect(profile.getCollector<ExceptionData>('exception')?.error.class).toBe('NotFoundHttpError');
    const listeners = profile
      .getCollector<EventsData>('events')!
      .dispatches.flatMap((dispatch) => dispatch.called.map((call) => call.name));
    expect(listeners).toContain('RouterListener.onKernelRequest');
  });

  it('profile: the firewall refused because the token expired', async () => {
    const app = sampleApp({ profiler: true });
    const client = await createTestClient(app.kernel).loginAs({ identifier: 'ada', roles: [] }, app.expiredIssuer);
    const response = await client.get('/api/me');
    expect(response.status).toBe(401);
    const messages = response.profile?.getCollector<LoggerData>('logger')?.records.map((record: LogRecordData) => record.message);
    expect(messages).toContain('Authentication refused: Expired JWT Token.');
  });
});

describe('headers and logins', () => {
  it('withHeaders and withBearer add headers to every request; a request header of the same name wins', async () => {
    const client = createTestClient(sampleApp().kernel).withHeaders({ 'x-tenant': 'a', accept: 'text/plain' });
    expect((await client.get('/inspect')).json<Inspection>().headers).toMatchObject({ 'x-tenant': 'a', accept: 'text/plain' });
    expect((await client.get('/inspect', { headers: { 'x-tenant': 'b' } })).json<Inspection>().headers['x-tenant']).toBe('b');
    expect((await client.withBearer('t0k').get('/inspect')).json<Inspection>().headers['authorization']).toBe('Bearer t0k');
  });

  it('loginAs mints a token with the issuer: the firewall lets the user in', async () => {
    const app = sampleApp();
    const anonymous = createTestClient(app.kernel);
    expect((await anonymous.get('/api/me')).status).toBe(401);
    const ada = await anonymous.loginAs({ identifier: 'ada', roles: ['ROLE_USER'] }, app.issuer);
    expect((await ada.get('/api/me')).json()).toEqual({ user: 'ada' });
  });
});
