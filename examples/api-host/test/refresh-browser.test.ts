import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../../test/kit/browser.js';
import { startHostInProcess, type StartedHost } from './support/start-host.js';

/**
 * The single-page-app pattern in real headless Chromium, on a page of the host's own origin over
 * plain HTTP on 127.0.0.1 (where browsers keep `Secure` cookies too): a login with "remember" sets
 * the refresh cookie, which survives a reload, is invisible to scripts, buys a new access token and
 * is rotated each time; a spent cookie sent again is refused and revokes the whole family. The flow
 * is off by default: the host runs with `REFRESH_COOKIE=1`.
 */
let host: StartedHost;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  host = await startHostInProcess({ REFRESH_COOKIE: '1' });
  browser = await launchChromium();
  context = await browser.newContext();
  page = await context.newPage();
  await page.goto(`${host.running.url}/api/items`);
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

/** A POST from the page's script; the answer's status and JSON body. */
function post(path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  return page.evaluate(
    async ({ path, body }) => {
      const response = await fetch(path, {
        method: 'POST',
        ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
      });
      return { status: response.status, json: (await response.json()) as Record<string, unknown> };
    },
    { path, body },
  );
}

async function refreshCookie() {
  return (await context.cookies()).find((cookie) => cookie.name === '__Secure-refresh');
}

describe('refresh tokens in a browser', () => {
  it('login with remember, reload, refresh (rotated), and a replayed cookie refused, revoking its family', async () => {
    const login = await post('/api/token', { username: 'demo', password: 'demo-password', remember: true });
    expect(login.status).toBe(200);
    const first = await refreshCookie();
    expect(first).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/api/token' });
    expect(first!.value).not.toContain('demo');

    await page.reload();
    expect(await page.evaluate('document.cookie')).toBe('');
    const refreshed = await post('/api/token/refresh');
    expect(refreshed.status).toBe(200);
    expect(refreshed.json['token_type']).toBe('Bearer');
    const me = await page.evaluate(
      async (token) => (await fetch('/api/me', { headers: { authorization: `Bearer ${token}` } })).json(),
      refreshed.json['token'] as string,
    );
    expect(me).toMatchObject({ username: 'demo' });
    const second = await refreshCookie();
    expect(second!.value).not.toBe(first!.value);

    // The spent cookie comes back (a thief's copy): refused, and the cookie is cleared.
    await context.addCookies([{ ...first!, sameSite: 'Strict' }]);
    const replayed = await post('/api/token/refresh');
    expect(replayed.status).toBe(401);
    expect(await refreshCookie()).toBeUndefined();
    // The family is revoked: the latest cookie, which the legitimate tab held, no longer works either.
    await context.addCookies([{ ...second!, sameSite: 'Strict' }]);
    expect((await post('/api/token/refresh')).status).toBe(401);
  });

  it('a login without remember sets no cookie; a refresh without one is refused', async () => {
    await context.clearCookies();
    expect((await post('/api/token', { username: 'demo', password: 'demo-password' })).status).toBe(200);
    expect(await refreshCookie()).toBeUndefined();
    expect((await post('/api/token/refresh')).status).toBe(401);
  });
});
