import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, startPageServer, type PageServer } from '../../../test/kit/browser.js';
import { startHostInProcess, type StartedHost } from './support/start-host.js';

/**
 * The example host as `main.ts` wires it, called by real headless Chromium from pages on other
 * origins: a page on 127.0.0.1 (another port) is allowed by the default loopback rule; the same page on
 * [::1] is not, and the browser blocks the call after the refused preflight.
 */
let host: StartedHost;
let browser: Browser;
const pages: PageServer[] = [];
const arrivals: string[] = [];

async function pageOrigin(address: string): Promise<string> {
  const page = await startPageServer(address);
  pages.push(page);
  return page.origin;
}

beforeAll(async () => {
  host = await startHostInProcess();
  // Records what reaches the kernel, before CORS answers anything.
  host.app.dispatcher.on(
    'kernel.request',
    (event) => {
      if (event.isMainRequest()) arrivals.push(`${event.request.method} ${event.request.rawPath}`);
    },
    1000,
  );
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
  for (const page of pages) page.close();
});

/** From a page on `address`: get a token (JSON body), then create an item with it (bearer + JSON): both preflighted. */
async function createItemFrom(address: string) {
  const tab = await browser.newPage();
  try {
    await tab.goto(`${await pageOrigin(address)}/`);
    return await tab.evaluate(async (api) => {
      try {
        const tokenResponse = await fetch(`${api}/api/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'demo', password: 'demo-password' }),
        });
        const { token } = (await tokenResponse.json()) as { token: string };
        const created = await fetch(`${api}/api/items`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-requested-with': 'browser-test' },
          body: JSON.stringify({ name: 'from the browser', quantity: 7 }),
        });
        return {
          ok: true as const,
          status: created.status,
          location: created.headers.get('location'),
          body: (await created.json()) as unknown,
        };
      } catch (error) {
        return { ok: false as const, error: String(error) };
      }
    }, host.running.url);
  } finally {
    await tab.close();
  }
}

describe('the example host called from a browser page on another origin', () => {
  it('allows a page on 127.0.0.1 to make preflighted JSON calls with a bearer token', async () => {
    arrivals.length = 0;
    const result = await createItemFrom('127.0.0.1');
    expect(result).toMatchObject({ ok: true, status: 201, body: { name: 'from the browser', quantity: 7 } });
    // `location` is readable because the host exposes it.
    expect(result.ok && result.location).toMatch(/^\/api\/items\/\d+$/);
    expect(arrivals).toEqual(['OPTIONS /api/token', 'POST /api/token', 'OPTIONS /api/items', 'POST /api/items']);
  });

  it('blocks the same page served from [::1]: only the refused preflight reaches the host', async () => {
    arrivals.length = 0;
    const result = await createItemFrom('::1');
    expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/Failed to fetch/) });
    expect(arrivals).toEqual(['OPTIONS /api/token']);
  });
});
