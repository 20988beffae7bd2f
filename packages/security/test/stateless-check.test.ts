import { defineController, JsonResponse, Response, type Request } from '@switchboard/http-kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionGuard } from '../src/index.js';
import { LeakLedger } from './support/leak-ledger.js';
import { startSecuredHost, type SecuredHost } from './support/secured-host.js';

const ledger = new LeakLedger();

/** Routes that misbehave: one touches session state through the guard, one sets a cookie. */
function routes(guard: () => SessionGuard) {
  const touchesSession = defineController(['request'], (request: Request) => {
    guard().reportUsage(request, 'cart.get()');
    return new JsonResponse({ stateless: request.attributes.get('_stateless') ?? false });
  });
  const setsCookie = defineController([], () => new Response('ok', 200, { 'set-cookie': 'sid=abc; HttpOnly' }));
  // Its Secure follows the request: the line is written when the kernel prepares the response, before the check.
  const setsHeldCookie = defineController([], () => {
    const response = new Response('ok');
    response.cookies.set('sid', 'abc');
    return response;
  });
  const clean = defineController(
    ['request'],
    (request: Request) => new JsonResponse({ stateless: request.attributes.get('_stateless') ?? false }),
  );
  return [
    { name: 'session', path: '/open/session', controller: touchesSession },
    { name: 'cookie', path: '/open/cookie', controller: setsCookie },
    { name: 'held_cookie', path: '/open/held-cookie', controller: setsHeldCookie },
    { name: 'clean', path: '/open/clean', controller: clean },
    { name: 'stateful', path: '/stateful/session', controller: touchesSession },
    { name: 'stateful_cookie', path: '/stateful/cookie', controller: setsCookie },
    { name: 'route_stateful', path: '/open/route-stateful', controller: touchesSession, defaults: { _stateless: false } },
  ];
}

async function start(debug: boolean): Promise<SecuredHost> {
  let guard: SessionGuard | undefined;
  return startSecuredHost({
    ledger,
    debug,
    extraFirewalls: [
      { name: 'open', pattern: /^\/open/, security: false },
      { name: 'stateful', pattern: /^\/stateful/, security: false, stateless: false },
    ],
    routes: routes(() => guard!),
    setup(dispatcher, logger) {
      guard = new SessionGuard({ debug, logger });
      // Marks responses that went through every kernel.response listener (an unfiltered one would lack it).
      dispatcher.on(
        'kernel.response',
        (event) => {
          if (event.isMainRequest()) event.response.headers.set('x-filtered', 'yes');
        },
        -2000,
      );
    },
  });
}

const warnings = (host: SecuredHost) => host.logger.records.filter((record) => record.level === 'WARNING' && record.channel === 'security');

describe('stateless check, debug mode', () => {
  let host: SecuredHost;
  beforeAll(async () => {
    host = await start(true);
  });
  afterAll(() => host.close());

  it('a stateless firewall marks the request _stateless', async () => {
    expect(JSON.parse((await host.request('/open/clean')).body)).toEqual({ stateless: true });
  });

  it('session use on a stateless request is an error at the point of use', async () => {
    const response = await host.request('/open/session', { headers: { accept: 'application/json' } });
    expect(response.status).toBe(500);
    expect(response.headers.get('x-filtered')).toBe('yes');
    expect(JSON.parse(response.body)).toMatchObject({
      detail: 'Session was used while the request was declared stateless (cart.get()).',
    });
  });

  it('a Set-Cookie on a stateless response is an error, and no cookie reaches the client', async () => {
    const response = await host.request('/open/cookie', { headers: { accept: 'application/json' } });
    expect(response.status).toBe(500);
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(response.headers.get('x-filtered')).toBe('yes');
    expect(JSON.parse(response.body)).toMatchObject({
      detail: 'Session was used while the request was declared stateless (Set-Cookie response header (removed)).',
    });
  });

  it('a non-stateless firewall, or a route that says _stateless: false, may use the session', async () => {
    expect((await host.request('/stateful/session')).status).toBe(200);
    const routeSaysNo = await host.request('/open/route-stateful');
    expect(routeSaysNo.status).toBe(200);
    expect(JSON.parse(routeSaysNo.body)).toEqual({ stateless: false });
  });

  it('a route not declared stateless keeps its Set-Cookie', async () => {
    const response = await host.request('/stateful/cookie');
    expect(response.status).toBe(200);
    expect(response.headers.get('set-cookie')).toBe('sid=abc; HttpOnly');
  });
});

describe('stateless check, production mode', () => {
  let host: SecuredHost;
  beforeAll(async () => {
    host = await start(false);
  });
  afterAll(() => host.close());

  it('session use on a stateless request is answered, with one warning logged', async () => {
    const response = await host.request('/open/session');
    expect(response.status).toBe(200);
    const logged = warnings(host);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      message: 'Session was used while the request was declared stateless.',
      context: { sources: ['cart.get()'], path: '/open/session' },
    });
  });

  it('a Set-Cookie is removed and warned about', async () => {
    const response = await host.request('/open/cookie');
    expect(response.status).toBe(200);
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(warnings(host).at(-1)).toMatchObject({
      message: 'Session was used while the request was declared stateless; its Set-Cookie headers were removed.',
      context: { sources: ['Set-Cookie response header (removed)'] },
    });
  });

  it('a cookie set through response.cookies is removed and warned about too', async () => {
    const response = await host.request('/open/held-cookie');
    expect(response.status).toBe(200);
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(warnings(host).at(-1)).toMatchObject({
      context: { sources: ['Set-Cookie response header (removed)'], path: '/open/held-cookie' },
    });
  });

  it('a route not declared stateless keeps its Set-Cookie, without a warning', async () => {
    const before = warnings(host).length;
    const response = await host.request('/stateful/cookie');
    expect(response.headers.get('set-cookie')).toBe('sid=abc; HttpOnly');
    expect(warnings(host)).toHaveLength(before);
  });

  it('a clean stateless request logs nothing', async () => {
    const before = warnings(host).length;
    expect((await host.request('/open/clean')).status).toBe(200);
    expect(warnings(host)).toHaveLength(before);
  });
});

describe('leak scan', () => {
  it('no response, header or log line of this file contains the passphrase or the private key', () => {
    expect(ledger.secretCount).toBeGreaterThan(10);
    expect(ledger.findLeaks()).toEqual([]);
  });
});
