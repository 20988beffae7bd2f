/**
 * With Redis unreachable for the whole run, a burst of bulky profiles keeps only the bounded
 * queue in memory: the heap stays flat, the rest is dropped and counted, and one line says so.
 */
import { afterAll, expect, it, vi } from 'vitest';
import { MemoryLogger } from '@switchboard/http-kernel';
import { RedisProfilerStorage } from '../src/index.js';
import { bulkyProfile, heapAfterGc } from '../../../test/kit/bulky-profiles.js';

const WRITES = 3000;
const MAX_PENDING = 100;
/** The queue's own share (100 × 20 KB) plus slack; an unbounded queue keeps thirty times this. */
const HEAP_GROWTH_LIMIT = 20 * 1024 * 1024;

const logger = new MemoryLogger();
// Nothing listens on port 1 of the loopback: every connection attempt is refused.
const storage = new RedisProfilerStorage({ url: 'redis://127.0.0.1:1', maxProfiles: WRITES, maxPendingWrites: MAX_PENDING, logger });
afterAll(() => storage.close());

it('keeps a bounded queue while Redis is down, counts the drops, and says so once', async () => {
  await vi.waitFor(() => expect(storage.status.message).toContain('is unavailable since'), { timeout: 10_000, interval: 5 });
  const before = heapAfterGc();
  for (let i = 0; i < WRITES; i++) await storage.write(bulkyProfile(i));
  const growth = heapAfterGc() - before;

  expect(growth).toBeLessThan(HEAP_GROWTH_LIMIT);
  expect(storage.pendingWrites).toBe(MAX_PENDING);
  expect(storage.droppedWrites).toBe(WRITES - MAX_PENDING);
  expect(storage.has(bulkyProfile(WRITES - 1).token)).toBe(true);
  expect(storage.has(bulkyProfile(0).token)).toBe(false);
  expect((await storage.find({ limit: 1 }))[0]?.url).toBe(`http://localhost/scan-${WRITES - 1}`);
  expect(logger.records.map((record) => record.level)).toEqual(['ERROR']);
});
