/**
 * What a real browser makes of pages built from hostile input: a request whose path and referer
 * carry script payloads, then its profile pages (every panel) and the debug error page it got, in
 * headless Chromium. No script may run; each page is screenshotted for docs/profiler.md.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../../test/kit/browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nullLogger } from '@switchboard/http-kernel';
import { serveKernel, type ServedKernel } from '../../../test/kit/index.js';
import { profiledKernel } from './support/profiled-kernel.js';
import { rawGet } from '../../../test/kit/raw-http.js';

/**
 * Screenshots are always taken; they replace the committed ones in docs/images/ only when
 * `UPDATE_SCREENSHOTS=1`, so an ordinary test run leaves the work tree clean.
 */
const IMAGES =
  process.env['UPDATE_SCREENSHOTS'] === '1'
    ? fileURLToPath(new URL('../../../docs/images/', import.meta.url))
    : `${mkdtempSync(join(tmpdir(), 'switchboard-screenshots-'))}/`;
/** Raw in the request line (no spaces: `/` separates attributes): node's client and server pass `<`, `>`, `"` and `'` through. */
const PATH_PAYLOAD = `/robots.txt/<script>alert('path')</script>"><img/src=x/onerror=alert('img')>`;
const REFERER_PAYLOAD = `http://127.0.0.1/start"><script>alert('referer')</script><svg onload=alert('svg')>`;
const PANELS = ['exception', 'request', 'events', 'router', 'logger', 'time', 'memory'];

const app = profiledKernel({}, {}, nullLogger);
let served: ServedKernel;
let browser: Browser;

beforeAll(async () => {
  served = await serveKernel(app.kernel);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await served?.close();
});

/** A page that records any dialog and exposes whether a payload set its flag. */
async function watchedPage(): Promise<{ page: Page; dialogs: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return { page, dialogs };
}

async function hostileRequest() {
  const response = await rawGet(served.origin, PATH_PAYLOAD, { referer: REFERER_PAYLOAD, accept: 'text/html' });
  expect(response.status).toBe(404);
  const token = String(response.headers['x-debug-token']);
  const previous = String(response.headers['x-previous-debug-token']);
  for (let i = 0; i < 200 && !(app.profiler.storage.has(token) && app.profiler.storage.has(previous)); i++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return { response, token, previous };
}

describe('hostile input in Chromium', () => {
  it('runs no script on any profile panel, and shows the payloads as text', async () => {
    const { previous, token } = await hostileRequest();
    const { page, dialogs } = await watchedPage();
    for (const panel of PANELS) {
      const response = await page.goto(`${served.origin}/_profiler/${previous}?panel=${panel}&type=request`);
      expect(response?.status(), panel).toBe(200);
      await page.screenshot({ path: `${IMAGES}profiler-${panel}.png` });
      if (panel === 'exception' || panel === 'request') {
        const text = await page.locator('main').innerText();
        // The payload reached the page, as text: the test would see a script if escaping failed.
        expect(text, panel).toContain(`<script>alert('referer')</script>`);
      }
    }
    await page.goto(`${served.origin}/_profiler/${token}?panel=exception`);
    await page.screenshot({ path: `${IMAGES}profiler-sub-request-exception.png` });
    await page.goto(`${served.origin}/_profiler/`);
    await page.screenshot({ path: `${IMAGES}profiler-list.png` });
    expect(dialogs).toEqual([]);
    expect(await page.locator('script').count()).toBe(0);
    await page.close();
  });

  it('runs no script on the debug error page of that request', async () => {
    const { response } = await hostileRequest();
    expect(response.body).toContain('&lt;script&gt;alert(&#x27;referer&#x27;)&lt;/script&gt;');
    const { page, dialogs } = await watchedPage();
    // Chromium would percent-encode the payload in a URL it sends; serve the page exactly as the
    // server answered the raw request, under the server's origin.
    const url = `${served.origin}/robots.txt/hostile`;
    await page.route(url, (route) =>
      route.fulfill({
        status: response.status,
        headers: Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, String(value)])),
        body: response.body,
      }),
    );
    await page.goto(url);
    const text = await page.locator('body').innerText();
    expect(text).toContain(`<script>alert('path')</script>`);
    expect(text).toContain(`<svg onload=alert('svg')>`);
    await page.screenshot({ path: `${IMAGES}debug-error-page.png` });
    expect(dialogs).toEqual([]);
    expect(await page.locator('script, img[src="x"], svg[onload]').count()).toBe(0);
    await page.close();
  });
});
