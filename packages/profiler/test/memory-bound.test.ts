/**
 * A scanner sending unmatched requests in debug mode: stored profiles stay within the storage
 * bound and the heap returns near its starting size after a full GC. Requests go in-process
 * through the real kernel (router, error listener, profiler), then kernel.terminate, as an
 * adapter does. Four times the storage bound past a full storage is enough to show that nothing
 * per request is kept: the heap may grow by less than 1 KiB a request, and a kept profile is
 * kilobytes. The 100,000-request soak over HTTP is a benchmark (`bench/load/profiler-storage.load.ts`).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect, it } from 'vitest';
import { nullLogger, Request } from '@switchboard/http-kernel';
import { MemoryProfilerStorage } from '../src/index.js';
import { DEFAULT_STORAGE_BOUNDS } from '../src/storage.js';
import { profiledKernel } from './support/profiled-kernel.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const REQUESTS = 4 * DEFAULT_STORAGE_BOUNDS.maxProfiles;
/** What the heap may keep beyond its size after warm-up (every profile slot already full): under 1 KiB a request. */
const HEAP_TOLERANCE_BYTES = REQUESTS * 1024;

function settledHeap(): number {
  for (let i = 0; i < 4; i++) gc();
  return process.memoryUsage().heapUsed;
}

function scannerRequest(i: number): Request {
  // The problem+json renderer keeps the loop fast; the error page's format is not under test here.
  return Request.fromUrl(`http://127.0.0.1:8000/wp-admin/scan-${i}.php?id=${i}`, {
    clientIp: `10.0.${(i >> 8) & 255}.${i & 255}`,
    headers: { accept: 'application/json', 'user-agent': 'scanner/1.0' },
  });
}

it(`keeps ${REQUESTS.toLocaleString('en')} unmatched requests within the storage bound and the heap flat`, async () => {
  const storage = new MemoryProfilerStorage();
  const app = profiledKernel({}, { storage }, nullLogger);
  const bound = DEFAULT_STORAGE_BOUNDS.maxProfiles;

  // Warm-up fills every profile slot, so the baseline already holds a full storage.
  for (let i = 0; i < 2 * bound; i++) await app.handle(scannerRequest(i));
  expect(storage.size).toBe(bound);
  const baseline = settledHeap();

  let sent = 0;
  let largest = 0;
  for (; sent < REQUESTS; sent++) {
    const response = await app.handle(scannerRequest(sent));
    if (response.status !== 404) throw new Error(`request ${sent} answered ${response.status}`);
    if (sent % 100 === 0) largest = Math.max(largest, storage.size);
  }
  expect(sent).toBe(REQUESTS);
  expect(largest).toBeLessThanOrEqual(bound);
  expect(storage.size).toBe(bound);

  const after = settledHeap();
  console.info(`heap after warm-up ${(baseline / 1048576).toFixed(1)} MiB, after ${sent} requests ${(after / 1048576).toFixed(1)} MiB`);
  expect(after - baseline).toBeLessThan(HEAP_TOLERANCE_BYTES);

  // The newest profiles are the last requests: main (newest) with its error sub-request as child.
  const [newest] = await app.profiler.find({ limit: 1 });
  expect(newest?.url).toBe(`http://127.0.0.1:8000/wp-admin/scan-${REQUESTS - 1}.php?id=${REQUESTS - 1}`);
  expect(newest?.parentToken).toBeNull();
});
