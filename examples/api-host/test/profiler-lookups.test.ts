/**
 * Profiler page parameters that name a JavaScript prototype member (`constructor`, `__proto__`…)
 * are just unknown names: 404 or an empty answer, never a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHostInProcess, type StartedHost } from './support/start-host.js';

const PROTOTYPE_KEYS = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', '__defineGetter__'];

describe('profiler lookups keyed by user input', () => {
  let host: StartedHost;
  let base: string;

  beforeAll(async () => {
    host = await startHostInProcess({ APP_DEBUG: '1' });
    base = host.running.url;
    // A stored profile for `latest` to find.
    await (await fetch(`${base}/health`)).text();
    for (let i = 0; i < 100 && (await fetch(`${base}/_profiler/latest`)).status !== 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  });
  afterAll(() => host.stop());

  it.each(PROTOTYPE_KEYS)('answers 404 "No such panel" for panel=%s, in HTML and JSON', async (key) => {
    const page = await fetch(`${base}/_profiler/latest?panel=${encodeURIComponent(key)}`);
    expect(page.status).toBe(404);
    expect(await page.text()).toContain('No such panel');
    const json = await fetch(`${base}/_profiler/latest?panel=${encodeURIComponent(key)}&format=json`);
    expect(json.status).toBe(404);
    expect(await json.json()).toMatchObject({ status: 404, title: 'No such panel' });
  });

  it.each(PROTOTYPE_KEYS)('answers 404 "No profile yet" or 400 for type=%s, never 500', async (key) => {
    const page = await fetch(`${base}/_profiler/latest?type=${encodeURIComponent(key)}`);
    expect([400, 404]).toContain(page.status);
    await page.text();
  });

  it.each(PROTOTYPE_KEYS)('lists no profile for search filters named %s', async (key) => {
    const page = await fetch(
      `${base}/_profiler/?url=${encodeURIComponent(key)}&method=${encodeURIComponent(key.replace(/_/g, ''))}&format=json`,
    );
    expect([200, 400]).toContain(page.status);
    await page.text();
  });
});
