/**
 * One hostile request (headers up to the server's limit, a long query, many cookies, a controller
 * logging many records) yields a profile within its byte budget, with visible truncation markers,
 * and the panels still render it. Storages are bounded by bytes too: the memory storage drops its
 * oldest profiles past `maxBytes`, a write-behind queue its oldest queued ones past `maxPendingBytes`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineController, JsonResponse, type Logger } from '@switchboard/http-kernel';
import { parseResponses, rawExchange } from '../../../test/kit/raw-http.js';
import { serveKernel, type ServedKernel } from '../../../test/kit/index.js';
import { FileProfilerStorage, MemoryProfilerStorage, type Profiler, type ProfileLimits } from '../src/index.js';
import { DEFAULT_PROFILE_LIMITS, OVER_BUDGET } from '../src/profile/profile-budget.js';
import { fitProfileData, resolveProfileLimits } from '../src/profile/profile-budget.js';
import { profiledKernel } from './support/profiled-kernel.js';
import { bulkyProfile } from '../../../test/kit/bulky-profiles.js';
import { sampleProfile } from '../src/testing.js';

const LOG_RECORDS = 600;

/** A served debug app whose `/flood` logs `LOG_RECORDS` records with a context each. */
async function floodApp(profileLimits: ProfileLimits): Promise<{ served: ServedKernel; profiler: Profiler }> {
  let logger: Logger | null = null;
  const flood = defineController(['request'], () => {
    for (let i = 0; i < LOG_RECORDS; i++) logger?.info({ i, detail: 'd'.repeat(150) }, `flood record ${i}`);
    return new JsonResponse({ flooded: true });
  });
  const app = profiledKernel({ '/flood': flood }, { profileLimits });
  logger = app.logger;
  return { served: await serveKernel(app.kernel), profiler: app.profiler };
}

/** Stays under the node adapter's 16 KiB header limit: 15 KiB of request line and fields. */
function hostileRequest(): string {
  const query = Array.from({ length: 200 }, (_, i) => `q${i}=${'v'.repeat(12)}`).join('&');
  const cookies = Array.from({ length: 250 }, (_, i) => `c${i}=${'k'.repeat(6)}`).join('; ');
  const padding = Array.from({ length: 38 }, (_, i) => `x-pad-${i}: ${'p'.repeat(90)}\r\n`).join('');
  return (
    `GET /flood?${query} HTTP/1.1\r\nhost: 127.0.0.1\r\naccept: application/json\r\ncookie: ${cookies}\r\n` +
    `x-big: ${'b'.repeat(4500)}\r\n${padding}connection: close\r\n\r\n`
  );
}

async function profileOfHostileRequest(app: { served: ServedKernel; profiler: Profiler }): Promise<{ token: string; json: string }> {
  const request = hostileRequest();
  expect(request.length).toBeGreaterThan(14 * 1024);
  const [response] = parseResponses(await rawExchange(app.served.port, request, { waitMs: 10_000 })).responses;
  expect(response?.status).toBe(200);
  const token = response!.headers['x-debug-token']!;
  // Saved at kernel.terminate, after the response: wait for it, within bounds.
  for (let i = 0; i < 200 && !app.profiler.storage.has(token); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  return { token, json: JSON.stringify(await app.profiler.storage.read(token)) };
}

describe('a hostile request in debug mode', () => {
  let bounded: { served: ServedKernel; profiler: Profiler };
  let unbounded: { served: ServedKernel; profiler: Profiler };

  beforeAll(async () => {
    bounded = await floodApp({});
    unbounded = await floodApp({ maxBytes: 16 * 1024 * 1024, maxStringLength: 1024 * 1024, maxItems: 1_000_000 });
  });
  afterAll(async () => {
    await bounded?.served.server.close();
    await unbounded?.served.server.close();
  });

  it('yields a profile within the byte budget, with truncation markers the pages show', async () => {
    const { token, json } = await profileOfHostileRequest(bounded);
    const { json: whole } = await profileOfHostileRequest(unbounded);
    console.info(`profile of the hostile request: ${json.length} characters within the budget, ${whole.length} without`);
    expect(whole.length).toBeGreaterThan(2 * DEFAULT_PROFILE_LIMITS.maxBytes);
    expect(json.length).toBeLessThanOrEqual(DEFAULT_PROFILE_LIMITS.maxBytes);
    // The long header keeps its start; the query list and the log records end with a marker item.
    expect(json.includes(`${'b'.repeat(100)}…[truncated: 4500 characters]`)).toBe(true);
    expect(json.includes('["[truncated: 100 more items]","[truncated: 100 more items]"]')).toBe(true);
    expect(json.includes(`"message":"[truncated: ${LOG_RECORDS + 1 - DEFAULT_PROFILE_LIMITS.maxItems} more items]"`)).toBe(true);

    for (const panel of ['request', 'logger', 'events', 'time']) {
      const page = await bounded.served.fetch(`/_profiler/${token}?panel=${panel}`);
      expect(page.status, panel).toBe(200);
    }
    expect((await bounded.served.fetch(`/_profiler/${token}?panel=request`)).body).toContain('[truncated: 4500 characters]');
    expect((await bounded.served.fetch(`/_profiler/${token}?panel=logger`)).body).toMatch(/\[truncated: \d+ more items\]/);
  });
});

it('past the byte budget every further string is a marker and every list one marker item, shapes kept', () => {
  const limits = resolveProfileLimits({ maxBytes: 2_000, maxStringLength: 500, maxItems: 10 });
  const headers = Array.from({ length: 8 }, (_, i) => [`x-h${i}`, ['v'.repeat(400)]]);
  const data = { request: { headers, records: [{ message: 'late', time: 5 }], note: 'late too' } };
  const fitted = fitProfileData(data, limits)['request'] as Record<string, unknown>;
  expect(JSON.stringify({ request: fitted }).length).toBeLessThanOrEqual(2_000);
  expect(fitted['note']).toBe(OVER_BUDGET);
  expect(fitted['records']).toEqual([{ message: '[truncated: 1 more items]', time: 0 }]);
  const kept = fitted['headers'] as Array<[string, string[]]>;
  expect(kept.at(-1)).toEqual([expect.stringMatching(/more items/), [expect.stringMatching(/more items/)]]);
  expect(kept.every(([name, values]) => typeof name === 'string' && Array.isArray(values))).toBe(true);
});

describe('storages bounded by bytes', () => {
  it('the memory storage drops its oldest profiles once it holds more than maxBytes', async () => {
    const storage = new MemoryProfilerStorage({ maxProfiles: 1000, maxBytes: 100_000 });
    const tokens: string[] = [];
    for (let i = 0; i < 20; i++) {
      const profile = bulkyProfile(i);
      tokens.push(profile.token);
      await storage.write(profile);
      expect(storage.bytes).toBeLessThanOrEqual(100_000);
    }
    // Each bulky profile is ~20,000 characters of JSON: four fit.
    expect(storage.size).toBe(4);
    expect(tokens.filter((token) => storage.has(token))).toEqual(tokens.slice(-4));
    expect(await storage.read(tokens[0]!)).toBeNull();
    // A single profile larger than the bound is kept (the newest), alone.
    await storage.write(sampleProfile('0000ff', Date.now(), { collectors: { big: 'x'.repeat(150_000) } }));
    expect([storage.size, storage.has('0000ff')]).toEqual([1, true]);
  });

  describe('the write-behind queue', () => {
    const directory = mkdtempSync(join(tmpdir(), 'profiler-bytes-'));
    afterAll(() => rmSync(directory, { recursive: true, force: true }));

    it('drops its oldest queued profiles once they hold more than maxPendingBytes', async () => {
      const storage = new FileProfilerStorage({ directory, maxPendingBytes: 100_000 });
      const tokens: string[] = [];
      for (let i = 0; i < 50; i++) {
        const profile = bulkyProfile(i);
        tokens.push(profile.token);
        void storage.write(profile);
      }
      // In one turn of the event loop nothing was written: the queue holds the batch in flight
      // (the first profile) and at most 100,000 characters (four bulky profiles) waiting.
      expect(storage.pendingWrites).toBeLessThanOrEqual(5);
      expect(storage.droppedWrites).toBe(50 - storage.pendingWrites);
      expect(await storage.flush()).toBe(true);
      expect(tokens.filter((token) => storage.has(token))).toEqual([tokens[0], ...tokens.slice(-4)]);
    });
  });
});
