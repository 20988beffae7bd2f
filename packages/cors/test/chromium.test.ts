import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonResponse, type Request } from '@switchboard/http-kernel';
import { CorsListener } from '../src/index.js';
import { launchChromium, startPageServer, type PageServer } from '../../../test/kit/browser.js';
import { startTestServer, type TestServer } from '../../../test/kit/index.js';

let browser: Browser;
let api: TestServer;
const pages: PageServer[] = [];
const seen: string[] = [];

beforeAll(async () => {
  api = await startTestServer({
    subscribers: [
      // The service's origin rule (the default) and a custom request header the page sends.
      new CorsListener({ allowHeaders: ['content-type', 'x-client'], exposeHeaders: ['x-echo'] }),
      {
        getSubscribedEvents: () => ({
          'kernel.request': [(event) => void seen.push(`${event.request.method} ${event.request.headers.get('origin')}`), 300],
        }),
      },
    ],
    routes: {
      'POST /api/echo': async (request: Request) => {
        const body = JSON.parse(await request.body!.text()) as unknown;
        return new JsonResponse({ received: body, client: request.headers.get('x-client') }, 200, { 'x-echo': 'yes' });
      },
    },
  });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await api?.close();
  for (const page of pages) page.close();
});

/** Loads the page from `host`, then has it POST JSON with a custom header to the API (a preflighted call). */
async function callFrom(
  host: string,
): Promise<{ ok: true; status: number; body: unknown; echo: string | null } | { ok: false; error: string }> {
  const page = await startPageServer(host);
  pages.push(page);
  const tab = await browser.newPage();
  try {
    await tab.goto(`${page.origin}/`);
    return await tab.evaluate(async (url) => {
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-client': 'browser-test' },
          body: JSON.stringify({ name: 'widget', count: 2 }),
        });
        return {
          ok: true as const,
          status: response.status,
          body: (await response.json()) as unknown,
          echo: response.headers.get('x-echo'),
        };
      } catch (error) {
        return { ok: false as const, error: String(error) };
      }
    }, `${api.origin}/api/echo`);
  } finally {
    await tab.close();
  }
}

describe('a real browser calling across origins', () => {
  it('lets a page on 127.0.0.1 (another port) make a preflighted JSON call', async () => {
    seen.length = 0;
    const result = await callFrom('127.0.0.1');
    expect(result).toEqual({
      ok: true,
      status: 200,
      body: { received: { name: 'widget', count: 2 }, client: 'browser-test' },
      echo: 'yes',
    });
    expect(seen.map((line) => line.split(' ')[0])).toEqual(['OPTIONS', 'POST']);
  });

  it('blocks the same page served from [::1]: the preflight is refused and the call never made', async () => {
    seen.length = 0;
    const result = await callFrom('::1');
    expect(result.ok).toBe(false);
    expect(result.ok === false && result.error).toMatch(/Failed to fetch/);
    expect(seen).toEqual([expect.stringMatching(/^OPTIONS http:\/\/\[::1\]:\d+$/)]);
  });
});
