/**
 * Redacting a profile costs time in proportion to its size, however many secret-named values the
 * request carried: a query of thousands of `token=…` values once made every string of the profile
 * be searched for every one of them.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect, it } from 'vitest';
import { defineController, JsonResponse, Request } from '@switchboard/http-kernel';
import { profiledKernel } from './support/profiled-kernel.js';

setFlagsFromString('--expose-gc');
/** A collection before each measurement, so that none falls inside one. */
const gc = runInNewContext('gc') as () => void;

const hello = defineController([], () => new JsonResponse({ hello: 'world' }));

/** Values long enough to count as credentials of the request (shorter ones are hidden only where named). */
const value = (i: number): string => `secret-value-${i}`;

/** Milliseconds to build (collect and redact) the profile of a request with `count` secret-named values: the least of five. */
async function buildTime(count: number): Promise<number> {
  const query = Array.from({ length: count }, (_, i) => `token=${value(i)}`).join('&');
  let least = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 5; round++) {
    const app = profiledKernel({ '/hello': hello });
    const response = await app.handle(Request.fromUrl(`http://localhost/hello?${query}`));
    gc();
    const started = performance.now();
    const profile = await app.profiler.loadProfile(response.headers.get('x-debug-token')!);
    least = Math.min(least, performance.now() - started);
    // Fully redacted: no value left anywhere, in the URL, the query panel or the headers.
    const json = JSON.stringify(profile?.toData());
    expect(json).not.toContain('secret-value-');
    expect(profile?.url.startsWith('http://localhost/hello?token=[redacted]&token=[redacted]&')).toBe(true);
  }
  return least;
}

it('redacts a profile with thousands of secret-named query values, four times as many costing well under 8× as long', async () => {
  // Warm-up, so the first measurement is not the one that compiles the code.
  await buildTime(1_000);
  const n = 2_000;
  const single = await buildTime(n);
  const quadruple = await buildTime(4 * n);
  console.info(`profile build: ${n} values ${single.toFixed(1)} ms, ${4 * n} values ${quadruple.toFixed(1)} ms`);
  // Linear work gives about 4×; work growing with the square of the count gives about 16×.
  expect(quadruple / single).toBeLessThan(8);
}, 120_000);
