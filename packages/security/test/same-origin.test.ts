import { defineController, JsonResponse, Request, Response } from '@switchboard/http-kernel';
import type { Browser } from 'playwright-core';
import { launchChromium, startPageServer, type PageServer } from '../../../test/kit/browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sameOriginRefusal } from '../src/index.js';
import { LeakLedger } from './support/leak-ledger.js';
import { startSecuredHost, type SecuredHost } from './support/secured-host.js';

const ledger = new LeakLedger();
let host: SecuredHost;
let calls = 0;

const create = defineController([], () => {
  calls++;
  return new JsonResponse({ created: true }, 201);
});
/** A same-origin page whose script posts to the protected route. */
const form = () =>
  new Response(
    `<!doctype html><script>fetch('/open/items', { method: 'POST', body: 'x=1' }).then((r) => { document.title = String(r.status); });</script>`,
    200,
    { 'content-type': 'text/html; charset=UTF-8' },
  );

beforeAll(async () => {
  host = await startSecuredHost({
    ledger,
    sameOrigin: { trustedOrigins: ['https://app.example.com'] },
    extraFirewalls: [{ name: 'open', pattern: /^\/open/, security: false }],
    routes: [
      { name: 'items', path: '/open/items', controller: create, defaults: { _same_origin: true } },
      { name: 'items_header', path: '/open/items-header', controller: create, defaults: { _same_origin: { header: 'x-csrf-protection' } } },
      { name: 'form', path: '/open/form', methods: ['GET'], controller: form },
      { name: 'api_items', path: '/api/items', controller: create, defaults: { _same_origin: true, _is_granted: 'ROLE_ADMIN' } },
    ],
  });
});

afterAll(() => host.close());

const post = (path: string, headers: Record<string, string> = {}) =>
  host.request(path, { method: 'POST', headers: { accept: 'application/json', ...headers }, body: 'x=1' });

async function expectRefused(path: string, headers: Record<string, string>, detail: string) {
  const before = calls;
  const response = await post(path, headers);
  expect(response.status).toBe(403);
  expect(JSON.parse(response.body)).toMatchObject({ status: 403, detail });
  expect(calls).toBe(before);
}

describe('same-origin check over HTTP (routes with _same_origin)', () => {
  it('safe methods pass whatever their origin', async () => {
    const response = await host.request('/open/items', { headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } });
    expect(response.status).toBe(201);
  });

  it('Sec-Fetch-Site: same-origin passes', async () => {
    expect((await post('/open/items', { 'sec-fetch-site': 'same-origin' })).status).toBe(201);
  });

  it('Sec-Fetch-Site: cross-site from an untrusted origin → 403', async () => {
    await expectRefused(
      '/open/items',
      { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
      'Cross-site request refused: Sec-Fetch-Site is "cross-site" and the origin "https://evil.example" is not trusted.',
    );
    await expectRefused('/open/items', { 'sec-fetch-site': 'same-site' }, 'Cross-site request refused: Sec-Fetch-Site is "same-site".');
  });

  it('a trusted origin passes even cross-site, compared case-insensitively', async () => {
    expect((await post('/open/items', { 'sec-fetch-site': 'cross-site', origin: 'HTTPS://APP.example.com' })).status).toBe(201);
  });

  it('without Sec-Fetch-Site, an Origin equal to this site passes, another one is refused', async () => {
    expect((await post('/open/items', { origin: host.url })).status).toBe(201);
    await expectRefused(
      '/open/items',
      { origin: 'http://127.0.0.1:1' },
      `Cross-site request refused: the origin "http://127.0.0.1:1" is not this site's origin "${host.url}".`,
    );
    await expectRefused(
      '/open/items',
      { origin: 'null' },
      `Cross-site request refused: the origin "null" is not this site's origin "${host.url}".`,
    );
  });

  it('neither header → 403 saying what is missing', async () => {
    await expectRefused(
      '/open/items',
      {},
      'Cross-site request refused: an unsafe request needs an Origin or Sec-Fetch-Site header to show where it comes from.',
    );
  });

  it('the custom header, when configured for the route, passes on its own', async () => {
    expect((await post('/open/items-header', { 'x-csrf-protection': '1' })).status).toBe(201);
    await expectRefused(
      '/open/items-header',
      {},
      'Cross-site request refused: an unsafe request needs an Origin or Sec-Fetch-Site header or x-csrf-protection to show where it comes from.',
    );
  });

  it('runs before authorization: a cross-site request is refused as such, even for a user without the role', async () => {
    const headers = { authorization: `Bearer ${await host.tokenFor({ identifier: 'alice', roles: [] })}`, origin: 'https://evil.example' };
    const response = await post('/api/items', headers);
    expect(response.status).toBe(403);
    expect(JSON.parse(response.body).detail).toMatch(/^Cross-site request refused/);
  });

  it('trusts origins a predicate accepts, and lets programs (no Origin, no Sec-Fetch-Site) through only when told', () => {
    const post = (headers: Record<string, string>) => Request.fromUrl('http://localhost/open/items', { method: 'POST', headers });
    const options = { trustedOrigins: (origin: string) => origin === 'http://app.localhost', allowNonBrowserClients: true };
    expect(sameOriginRefusal(post({ origin: 'http://app.localhost', 'sec-fetch-site': 'cross-site' }), options)).toBeNull();
    expect(sameOriginRefusal(post({ origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }), options)).toMatch(/^Cross-site/);
    expect(sameOriginRefusal(post({ origin: 'https://evil.example' }), options)).toMatch(/^Cross-site/);
    expect(sameOriginRefusal(post({}), options)).toBeNull();
    expect(sameOriginRefusal(post({}), { trustedOrigins: options.trustedOrigins })).toMatch(/needs an Origin or Sec-Fetch-Site/);
  });

  it('bounds the attacker-chosen origin it repeats', () => {
    const long = `https://${'a'.repeat(500)}.example`;
    const refusal = sameOriginRefusal(Request.fromUrl('http://localhost/open/items', { method: 'POST', headers: { origin: long } }));
    expect(refusal).not.toBeNull();
    expect(refusal!.length).toBeLessThan(250);
  });
});

describe('same-origin check in a real browser', () => {
  let browser: Browser;
  let attacker: PageServer;
  let attackerUrl: string;

  beforeAll(async () => {
    browser = await launchChromium();
    // Another site: `localhost` is a different site from `127.0.0.1`, where the host listens.
    attacker = await startPageServer(
      '127.0.0.1',
      `<!doctype html><form method="post" action="${host.url}/open/items"><input name="x" value="1"></form>` +
        '<script>document.forms[0].submit()</script>',
    );
    attackerUrl = `http://localhost:${attacker.port}/`;
  });

  afterAll(async () => {
    await browser?.close();
    attacker?.close();
  });

  it('a form auto-submitted from another site is refused with 403 and the controller never runs', async () => {
    const page = await browser.newPage();
    const before = calls;
    const answered = page.waitForResponse((response) => response.url() === `${host.url}/open/items`);
    await page.goto(attackerUrl);
    const response = await answered;
    expect(response.status()).toBe(403);
    expect(response.request().headers()['origin']).toBe(attackerUrl.slice(0, -1));
    expect(calls).toBe(before);
    await page.close();
  });

  it('the same request from the site itself passes', async () => {
    const page = await browser.newPage();
    const before = calls;
    await page.goto(`${host.url}/open/form`);
    await page.waitForFunction('document.title !== ""');
    expect(await page.title()).toBe('201');
    expect(calls).toBe(before + 1);
    await page.close();
  });
});

describe('leak scan', () => {
  it('no response, header or log line of this file contains the passphrase or the private key', async () => {
    await host.close();
    expect(ledger.size).toBeGreaterThan(10);
    expect(ledger.findLeaks()).toEqual([]);
  });
});
