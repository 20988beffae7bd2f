/**
 * `Server-Timing` (the kernel's ServerTimingListener) over a real server: in debug mode beside the
 * profiler, whose token describes the total, and in a production-mode kernel with no profiler.
 * Chromium reads the header as a browser's developer tools do (PerformanceServerTiming).
 */
import type { Browser } from 'playwright-core';
import { launchChromium } from '../../../test/kit/browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  defineController,
  EventDispatcher,
  HttpKernel,
  JsonResponse,
  MemoryLogger,
  Response,
  type KernelEventMap,
} from '@switchboard/http-kernel';
import { ServerTimingListener } from '@switchboard/http-kernel/tracing';
import { ErrorListener } from '@switchboard/error-controller';
import { serveKernel, type ServedKernel } from '../../../test/kit/index.js';
import { RouteCollection, Router, RouterListener } from '@switchboard/router';
import { DEBUG_TOKEN_HEADER } from '../src/index.js';
import { profiledKernel } from './support/profiled-kernel.js';

/** Keeps the CPU busy for at least `ms`: a lower bound on the controller's phase, whatever the machine's load. */
function busyFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // spin
  }
}

const BUSY_MS = 15;

const controllers = {
  '/hello': defineController([], () => new JsonResponse({ hello: 'world' })),
  '/busy': defineController([], () => {
    busyFor(BUSY_MS);
    return new Response('done');
  }),
  '/boom': defineController([], () => {
    throw new Error('The controller broke.');
  }),
};

interface TimingEntry {
  name: string;
  dur: number;
  desc: string;
}

/** Parses `name;dur=1.2;desc="…", …` (the listener's own format: no commas or quotes inside descriptions). */
function parseServerTiming(value: string | null): TimingEntry[] {
  if (value === null) return [];
  return value.split(', ').map((entry) => {
    const match = /^(\w+);dur=(\d+\.\d);desc="([^"]*)"$/.exec(entry);
    if (match === null) throw new Error(`malformed Server-Timing entry: ${entry}`);
    return { name: match[1]!, dur: Number(match[2]), desc: match[3]! };
  });
}

const names = (entries: TimingEntry[]): string[] => entries.map((entry) => entry.name);
const entry = (entries: TimingEntry[], name: string): TimingEntry => entries.find((e) => e.name === name)!;

let debugServer: ServedKernel;
let productionServer: ServedKernel;
let browser: Browser;

beforeAll(async () => {
  const debug = profiledKernel(controllers);
  debug.dispatcher.addSubscriber(new ServerTimingListener({ tokenHeader: DEBUG_TOKEN_HEADER }));
  debugServer = await serveKernel(debug.kernel);

  const routes = new RouteCollection();
  for (const [path, controller] of Object.entries(controllers)) routes.add(path, path, { controller });
  const dispatcher = new EventDispatcher<KernelEventMap>();
  dispatcher.addSubscriber(new RouterListener(new Router(routes)));
  dispatcher.addSubscriber(new ErrorListener({ debug: false, logger: new MemoryLogger() }));
  dispatcher.addSubscriber(new ServerTimingListener());
  productionServer = await serveKernel(new HttpKernel({ dispatcher, logger: new MemoryLogger() }));

  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await debugServer?.close();
  await productionServer?.close();
});

describe('Server-Timing in debug mode', () => {
  it("times the request listeners, the controller and the response listeners; the total names the request's profile", async () => {
    const response = await fetch(`${debugServer.origin}/busy`);
    expect(response.status).toBe(200);
    const entries = parseServerTiming(response.headers.get('server-timing'));
    expect(names(entries)).toEqual(['request', 'controller', 'response', 'total']);
    expect(entry(entries, 'controller').dur).toBeGreaterThanOrEqual(BUSY_MS);
    const total = entry(entries, 'total');
    expect(total.desc).toBe(`profile ${response.headers.get('x-debug-token')}`);
    const phases = entries.filter((e) => e.name !== 'total').reduce((sum, e) => sum + e.dur, 0);
    // Each duration is rounded to 0.1 ms: the phases add up to the total within their rounding.
    expect(phases).toBeLessThanOrEqual(total.dur + 0.2);
    await response.arrayBuffer();
  });

  it("times the error branch (the error page's sub-request) of a failed request, once, for the main request", async () => {
    const response = await fetch(`${debugServer.origin}/boom`, { headers: { accept: 'application/json' } });
    expect(response.status).toBe(500);
    const header = response.headers.get('server-timing');
    const entries = parseServerTiming(header);
    expect(names(entries)).toEqual(['request', 'controller', 'error', 'response', 'total']);
    // The token of the error page's profile, the one x-debug-token-link opens.
    expect(entry(entries, 'total').desc).toBe(`profile ${response.headers.get('x-debug-token')}`);
    await response.arrayBuffer();
  });

  it('leaves the controller out when no route matched', async () => {
    const response = await fetch(`${debugServer.origin}/nowhere`, { headers: { accept: 'application/json' } });
    expect(response.status).toBe(404);
    expect(names(parseServerTiming(response.headers.get('server-timing')))).toEqual(['request', 'error', 'response', 'total']);
    await response.arrayBuffer();
  });

  it('is what Chromium reports as the navigation timing entry of the page', async () => {
    const page = await browser.newPage();
    try {
      const response = await page.goto(`${debugServer.origin}/busy`);
      expect(response?.status()).toBe(200);
      // Evaluated in the page, where the DOM's PerformanceNavigationTiming exists.
      const serverTiming = await page.evaluate<Array<{ name: string; duration: number; description: string }>>(
        `performance.getEntriesByType('navigation')[0].serverTiming.map((e) => ({ name: e.name, duration: e.duration, description: e.description }))`,
      );
      expect(serverTiming.map((e) => e.name)).toEqual(['request', 'controller', 'response', 'total']);
      expect(serverTiming[1]!.duration).toBeGreaterThanOrEqual(BUSY_MS);
      expect(serverTiming[3]!.description).toBe(`profile ${response!.headers()['x-debug-token']}`);
    } finally {
      await page.close();
    }
  });
});

describe('Server-Timing in production mode, when enabled', () => {
  it('has the same phases, and a total without a profile', async () => {
    const response = await fetch(`${productionServer.origin}/boom`, { headers: { accept: 'application/json' } });
    expect(response.status).toBe(500);
    const entries = parseServerTiming(response.headers.get('server-timing'));
    expect(names(entries)).toEqual(['request', 'controller', 'error', 'response', 'total']);
    expect(entry(entries, 'total').desc).toBe('total');
    expect(response.headers.has('x-debug-token')).toBe(false);
    await response.arrayBuffer();
  });
});
