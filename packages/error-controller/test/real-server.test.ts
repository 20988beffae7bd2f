/**
 * The error pages over a real socket: fetch for the headers as sent on the wire, Chromium for
 * what a browser makes of a debug page built from hostile input.
 */
import type { Browser } from 'playwright-core';
import { launchChromium } from '../../../test/kit/browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BadRequestHttpError, defineController, type Request } from '@switchboard/http-kernel';
import { RouteCollection, Router, RouterListener } from '@switchboard/router';
import { errorKernel } from './support/error-kernel.js';
import { serveKernel, type ServedKernel } from '../../../test/kit/index.js';

const PAYLOADS = ['<script>alert(1)</script>', '"><img src=x onerror=alert(1)>'];

const routes = new RouteCollection().add('search', '/search', {
  methods: ['GET'],
  // Echoes the query into the error message, as careless validation code does.
  controller: defineController(['request'], (request: Request): never => {
    throw new BadRequestHttpError(`Invalid search "${request.query.get('q') ?? ''}"`);
  }),
});
const kernel = errorKernel((dispatcher) => dispatcher.addSubscriber(new RouterListener(new Router(routes), { debug: true })));
let served: ServedKernel;
let browser: Browser | undefined;

beforeAll(async () => {
  served = await serveKernel(kernel.kernel);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await served?.close();
});

describe('error responses over node:http', () => {
  it("sends the 404 with every header of the error response except the profiler's", async () => {
    const response = await fetch(`${served.origin}/robots.txt`, { headers: { referer: 'http://127.0.0.1/start' } });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    expect(response.headers.get('cache-control')).toBe('no-cache, private');
    expect(response.headers.get('vary')).toBe('Accept');
    expect(response.headers.get('x-robots-tag')).toBe('noindex');
    expect(response.headers.get('date')).not.toBeNull();
    expect(decodeURIComponent(response.headers.get('x-debug-exception')!)).toBe(
      `No route found for "GET ${served.origin}/robots.txt" (from "http://127.0.0.1/start")`,
    );
    expect(response.headers.get('x-debug-exception-file')).toMatch(/\.ts:\d+$/);
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(await response.text()).toContain('<title>No route found for &quot;GET');
  });

  it('sends a problem document to a JSON client', async () => {
    const response = await fetch(`${served.origin}/nope`, { headers: { accept: 'application/json' } });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(await response.json()).toMatchObject({ type: 'about:blank', title: 'Not Found', status: 404 });
  });
});

describe('the debug page in Chromium', () => {
  it('shows hostile input as text: no script runs, no element is injected', async () => {
    const page = await browser!.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    const response = await page.goto(`${served.origin}/search?q=${encodeURIComponent(PAYLOADS.join(''))}`);
    expect(response?.status()).toBe(400);
    await page.waitForLoadState('load');

    expect(dialogs).toEqual([]);
    expect(await page.locator('script, img, iframe, object, embed').count()).toBe(0);
    expect(await page.locator('header .message').textContent()).toBe(`Invalid search "${PAYLOADS.join('')}"`);
    expect(await page.title()).toBe(`Invalid search "${PAYLOADS.join('')}" (400 Bad Request)`);
    // Nothing but the page itself was fetched: the page is self-contained.
    expect(requests).toEqual([`${served.origin}/search?q=${encodeURIComponent(PAYLOADS.join(''))}`]);

    // Frames are collapsible: the first own frame is open, a closed one opens on click.
    const details = page.locator('details');
    expect(await details.count()).toBeGreaterThan(1);
    expect(await details.first().getAttribute('open')).toBe('');
    // A handle, not a locator: after the click the element no longer matches `:not([open])`.
    const closed = (await page.locator('details:not([open])').first().elementHandle())!;
    await (await closed.$('summary'))!.click();
    expect(await closed.getAttribute('open')).toBe('');
    await page.screenshot({ path: `${process.env['TMPDIR'] ?? '/tmp'}/switchboard-error-page.png`, fullPage: true });
    await page.close();
  });
});
