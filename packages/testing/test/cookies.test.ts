import { describe, expect, it } from 'vitest';
import { CookieJar, createTestClient } from '../src/index.js';
import { sampleApp } from './support/sample-app.js';

describe('the cookie jar across requests', () => {
  it('keeps cookies and sends those whose domain, path and Secure rules match', async () => {
    const client = createTestClient(sampleApp().kernel);
    expect((await client.get('/cookies/set')).status).toBe(204);
    // Path=/cookies/echo is sent there only; Secure over http to localhost (as browsers do); a foreign Domain was never stored.
    expect((await client.get('/cookies/echo')).text()).toBe('scoped=2; plain=1; secure=3; session=4; short=5; wide=6');
    // Without Path, a cookie's path is the folder of the URL that set it (/cookies).
    expect((await client.get('/inspect')).json<{ headers: Record<string, string> }>().headers['cookie']).toBeUndefined();
    expect(client.cookies.get('foreign')).toBeUndefined();
    expect(client.cookies.all().find((cookie) => cookie.name === 'session')).toMatchObject({
      httpOnly: true,
      sameSite: 'Lax',
      hostOnly: true,
    });
  });

  it('sends Secure cookies over https', async () => {
    const client = createTestClient(sampleApp().kernel, { baseUrl: 'https://localhost' });
    await client.get('/cookies/set');
    expect((await client.get('/cookies/echo')).text()).toContain('secure=3');
  });

  it('forgets a cookie the server expires, and one whose Max-Age ran out', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const jar = new CookieJar(() => now);
    const url = new URL('http://localhost/');
    jar.store('short=5; Max-Age=1', url);
    jar.store('dated=1; Expires=Thu, 01 Jan 2026 00:00:02 GMT', url);
    jar.store('both=1; Max-Age=100; Expires=Thu, 01 Jan 2026 00:00:01 GMT', url);
    expect(jar.headerFor(url)).toBe('short=5; dated=1; both=1');
    now += 1_500;
    expect(jar.headerFor(url)).toBe('dated=1; both=1');
    now += 1_000;
    expect(jar.headerFor(url)).toBe('both=1');

    const client = createTestClient(sampleApp().kernel);
    await client.get('/cookies/set');
    await client.get('/cookies/drop');
    expect(client.cookies.get('plain')).toBeUndefined();
  });

  it('keeps Secure cookies of http only from loopback hosts, and enforces the __Secure- and __Host- prefixes', () => {
    const jar = new CookieJar();
    jar.store('a=1; Secure', new URL('http://127.0.0.1:8000/'));
    jar.store('b=1; Secure', new URL('http://app.localhost/'));
    jar.store('c=1; Secure', new URL('http://example.test/'));
    jar.store('__Secure-d=1', new URL('https://example.test/'));
    jar.store('__Host-e=1; Secure; Path=/api', new URL('https://example.test/api'));
    jar.store('__Host-f=1; Secure; Path=/; Domain=example.test', new URL('https://example.test/'));
    jar.store('__Host-g=1; Secure; Path=/', new URL('https://example.test/'));
    expect(jar.all().map((cookie) => cookie.name)).toEqual(['a', 'b', '__Host-g']);
    expect(jar.headerFor(new URL('http://127.0.0.1:8000/'))).toBe('a=1');
  });

  it('host-only and domain cookies, default paths, and refusals', () => {
    const jar = new CookieJar();
    jar.store('host=1', new URL('http://api.example/a/b'));
    jar.store('domain=2; Domain=.example', new URL('http://api.example/'));
    jar.store('evil=3; Domain=other.example', new URL('http://api.example/'));
    jar.store('secure=4; Secure', new URL('http://api.example/'));
    jar.store('novalue', new URL('http://api.example/'));
    expect(jar.headerFor(new URL('http://api.example/a/c'))).toBe('host=1; domain=2');
    expect(jar.headerFor(new URL('http://api.example/ab'))).toBe('domain=2');
    expect(jar.headerFor(new URL('http://www.api.example/a/x'))).toBe('domain=2');
    expect(jar.headerFor(new URL('http://example/'))).toBe('domain=2');
    expect(jar.all().map((cookie) => cookie.name)).toEqual(['host', 'domain']);
  });

  it('client.cookies sets and clears cookies; cookies: false keeps none', async () => {
    const client = createTestClient(sampleApp().kernel);
    client.cookies.set('theme', 'dark', new URL(client.baseUrl), { httpOnly: true });
    expect((await client.get('/cookies/echo')).text()).toBe('theme=dark');
    expect((await client.get('/cookies/echo', { headers: { cookie: 'own=1' } })).text()).toBe('own=1; theme=dark');
    client.cookies.clear('theme');
    expect((await client.get('/cookies/echo')).text()).toBe('');

    const forgetful = createTestClient(sampleApp().kernel, { cookies: false });
    await forgetful.get('/cookies/set');
    expect(forgetful.cookies.all()).toEqual([]);
    expect((await forgetful.get('/cookies/echo')).text()).toBe('');
  });
});
