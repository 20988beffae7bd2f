import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Request, Response } from '../src/index.js';
import { CookieSealer, CookieSigner, InvalidCookieError } from '../src/cookies.js';

const setCookies = (response: Response) => response.headers.getAll('set-cookie');

describe('response.cookies', () => {
  const plainRequest = Request.fromUrl('http://127.0.0.1/');
  const secureRequest = Request.fromUrl('https://127.0.0.1/');

  it('writes one Set-Cookie per cookie with the safe defaults, Secure as the request is', () => {
    for (const [request, secure] of [
      [plainRequest, ''],
      [secureRequest, ' Secure;'],
    ] as const) {
      const response = new Response();
      response.cookies.set('theme', 'dark').set('lang', 'fr', { httpOnly: false, sameSite: 'strict', maxAge: 60 });
      // Held until the response meets its request: nothing written yet.
      expect(setCookies(response)).toEqual([]);
      expect(response.prepare(request)).toBe(response);
      expect(setCookies(response)).toEqual([
        `theme=dark; Path=/; HttpOnly;${secure} SameSite=Lax`,
        `lang=fr; Max-Age=60; Path=/;${secure} SameSite=Strict`,
      ]);
    }
  });

  it('writes at once what secure decides, and what is set after the response was prepared', () => {
    const response = new Response();
    response.cookies.set('on', '1', { secure: true }).set('off', '1', { secure: false });
    expect(setCookies(response)).toEqual(['on=1; Path=/; HttpOnly; Secure; SameSite=Lax', 'off=1; Path=/; HttpOnly; SameSite=Lax']);
    response.prepare(secureRequest);
    response.cookies.set('late', '1');
    // The first preparation decides: a second, for another request, changes nothing.
    response.prepare(plainRequest);
    response.cookies.set('later', '1');
    expect(setCookies(response).slice(2)).toEqual([
      'late=1; Path=/; HttpOnly; Secure; SameSite=Lax',
      'later=1; Path=/; HttpOnly; Secure; SameSite=Lax',
    ]);
  });

  it('makes the __Secure- and __Host- prefixes, SameSite=None and Partitioned Secure over plain HTTP too', () => {
    const response = new Response();
    response.cookies
      .set('__Secure-a', '1')
      .set('__host-b', '1')
      .set('c', '1', { sameSite: 'none' })
      .set('d', '1', { partitioned: true, sameSite: 'strict' });
    expect(setCookies(response)).toHaveLength(4);
    response.prepare(plainRequest);
    expect(setCookies(response).every((line) => line.includes('; Secure'))).toBe(true);
  });

  it('replaces a cookie set again with the same path and domain, held or written, and keeps other Set-Cookie lines', () => {
    const response = new Response('', 200, { 'set-cookie': 'other=1' });
    response.cookies.set('a', '1', { secure: true }).set('a', '2').set('a', '3', { path: '/x' });
    // The written a=1 made way for the held a=2.
    expect(setCookies(response)).toEqual(['other=1']);
    response.cookies.set('b', '1').set('b', '2', { secure: false });
    response.prepare(plainRequest);
    expect(setCookies(response)).toEqual([
      'other=1',
      'b=2; Path=/; HttpOnly; SameSite=Lax',
      'a=2; Path=/; HttpOnly; SameSite=Lax',
      'a=3; Path=/x; HttpOnly; SameSite=Lax',
    ]);
    response.cookies.set('a', '4');
    expect(setCookies(response)).toContain('a=4; Path=/; HttpOnly; SameSite=Lax');
    expect(setCookies(response)).not.toContain('a=2; Path=/; HttpOnly; SameSite=Lax');
  });

  it('deletes with an expired cookie of the same name and path', () => {
    const response = new Response();
    response.cookies.delete('sid', { path: '/api' });
    response.prepare(secureRequest);
    expect(setCookies(response)).toEqual([
      'sid=; Max-Age=0; Path=/api; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Lax',
    ]);
  });

  it('percent-encodes what a cookie value cannot hold, and request.cookies decodes it', () => {
    const response = new Response();
    response.cookies.set('note', 'a; b=c, "d" é', { secure: true });
    const line = setCookies(response)[0]!;
    expect(line.startsWith('note=a%3B%20b%3Dc%2C%20%22d%22%20%C3%A9;')).toBe(true);
    const request = Request.fromUrl('http://localhost/', { headers: { cookie: line.split(';')[0]! } });
    expect(request.cookies.get('note')).toBe('a; b=c, "d" é');
  });

  it('writes Partitioned and Priority', () => {
    const response = new Response();
    response.cookies.set('__Host-embed', '1', { partitioned: true, sameSite: 'none', priority: 'high' });
    expect(setCookies(response)).toEqual(['__Host-embed=1; Path=/; HttpOnly; Secure; Partitioned; Priority=High; SameSite=None']);
  });

  const refusals: [string, string, Parameters<Response['cookies']['set']>[2], RegExp][] = [
    ['name with a separator', 'a=b', {}, /name "a=b" is not an HTTP token/],
    ['name with a semicolon', 'a;Domain=evil.example', {}, /not an HTTP token/],
    ['name with a space', 'a b', {}, /not an HTTP token/],
    ['name with a line break', 'a\r\nSet-Cookie: x', {}, /not an HTTP token/],
    ['empty name', '', {}, /not an HTTP token/],
    ['path with a semicolon', 'a', { path: '/; Domain=evil.example' }, /path .* must start with/],
    ['path with a line break', 'a', { path: '/x\r\nX-Evil: 1' }, /path .* must start with/],
    ['relative path', 'a', { path: 'x' }, /path .* must start with/],
    ['domain with a semicolon', 'a', { domain: 'example.com; Path=/x' }, /domain .* is not a domain name/],
    ['domain with a space', 'a', { domain: 'example .com' }, /is not a domain name/],
    ['domain with a line break', 'a', { domain: 'example.com\r\nX: 1' }, /is not a domain name/],
    ['__Secure- without Secure', '__Secure-id', { secure: false }, /__Secure- prefix requires Secure/],
    ['__Host- without Secure', '__Host-id', { secure: false }, /__Host- prefix requires Secure/],
    ['__Host- with a path', '__Host-id', { path: '/api' }, /__Host- prefix requires Path=\/ and no Domain/],
    ['__Host- with a domain', '__Host-id', { domain: 'example.com' }, /__Host- prefix requires Path=\/ and no Domain/],
    ['SameSite=None without Secure', 'a', { sameSite: 'none', secure: false }, /SameSite=None requires Secure/],
    ['Partitioned without Secure', 'a', { partitioned: true, secure: false }, /Partitioned requires Secure/],
    ['fractional Max-Age', 'a', { maxAge: 1.5 }, /whole number/],
  ];
  it.each(refusals)('refuses a %s', (_what, name, options, message) => {
    const response = new Response();
    expect(() => response.cookies.set(name, 'v', options)).toThrow(InvalidCookieError);
    expect(() => response.cookies.set(name, 'v', options)).toThrow(message);
    response.prepare(secureRequest);
    expect(setCookies(response)).toEqual([]);
  });

  it('refuses a raw control character in a value (a header split attempt)', () => {
    const response = new Response();
    expect(() => response.cookies.set('a', 'v\r\nSet-Cookie: admin=1')).toThrow(/control character/);
    expect(setCookies(response)).toEqual([]);
  });
});

describe('request.cookies', () => {
  it('parses every Cookie header once, the first value of a repeated name winning', () => {
    const request = Request.fromUrl('http://localhost/', {
      headers: [
        ['cookie', 'a=1; b=2; a=3'],
        ['cookie', 'c=%E2%82%AC'],
      ],
    });
    expect(request.cookies.all()).toEqual({ a: '1', b: '2', c: '€' });
    expect(request.cookies).toBe(request.cookies);
    expect(request.cookies.has('b')).toBe(true);
    expect(Request.fromUrl('http://localhost/').cookies.size).toBe(0);
  });
});

describe('CookieSigner', () => {
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);

  it('signs with the first key, verifies with any, and refuses a changed value or another name', () => {
    const before = new CookieSigner([oldKey]);
    const signed = before.sign('prefs', 'dark');
    const rotated = new CookieSigner([newKey, oldKey]);
    expect(rotated.verify('prefs', signed)).toBe('dark');
    expect(rotated.verify('prefs', rotated.sign('prefs', 'dark'))).toBe('dark');
    expect(before.verify('prefs', rotated.sign('prefs', 'dark'))).toBeNull();
    expect(rotated.verify('prefs', signed.replace('dark', 'lite'))).toBeNull();
    expect(rotated.verify('other', signed)).toBeNull();
    expect(rotated.verify('prefs', 'dark')).toBeNull();
    expect(rotated.verify('prefs', undefined)).toBeNull();
  });

  it('refuses short keys', () => {
    expect(() => new CookieSigner(['short'])).toThrow(/at least 32 bytes/);
    expect(() => new CookieSigner([])).toThrow(/at least one key/);
  });
});

describe('CookieSealer', () => {
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32).toString('hex');

  it('seals so the client cannot read it, opens with any listed key, refuses tampering and moves', () => {
    const before = new CookieSealer([oldKey]);
    const sealed = before.seal('refresh', 'family-1:secret');
    expect(sealed).not.toContain('secret');
    expect(before.seal('refresh', 'family-1:secret')).not.toBe(sealed);
    const rotated = new CookieSealer([newKey, oldKey]);
    expect(rotated.open('refresh', sealed)).toBe('family-1:secret');
    expect(before.open('refresh', rotated.seal('refresh', 'x'))).toBeNull();
    expect(rotated.open('other', sealed)).toBeNull();
    const parts = sealed.split('.');
    const data = Buffer.from(parts[2]!, 'base64url');
    data[0]! ^= 1;
    expect(rotated.open('refresh', [parts[0], parts[1], data.toString('base64url'), parts[3]].join('.'))).toBeNull();
    expect(rotated.open('refresh', 'not.a.sealed')).toBeNull();
    expect(rotated.open('refresh', undefined)).toBeNull();
  });

  it('takes 32-byte keys only', () => {
    expect(() => new CookieSealer([randomBytes(16)])).toThrow(/32 bytes/);
  });
});
