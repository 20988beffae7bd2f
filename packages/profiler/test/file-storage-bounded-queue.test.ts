/**
 * The file storage under more writes than the disk takes: a burst of profiles queued in one turn
 * of the event loop (no write can finish meanwhile) keeps only a bounded queue in memory, drops
 * the oldest queued profiles with one log line (and one message per drop on its channel), and afterwards every token is either stored (on
 * disk, found by a restarted storage) or unknown.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { MemoryLogger } from '@switchboard/http-kernel';
import { FileProfilerStorage } from '../src/index.js';
import { PROFILE_DROPPED_CHANNEL } from '../src/storage.js';
import { bulkyProfile, heapAfterGc } from '../../../test/kit/bulky-profiles.js';

const WRITES = 3000;
const MAX_PENDING = 100;
/** The queue's own share (100 × 20 KB) plus slack; an unbounded queue keeps three times this. */
const HEAP_GROWTH_LIMIT = 20 * 1024 * 1024;

const directory = mkdtempSync(join(tmpdir(), 'profiler-queue-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

it('keeps a bounded queue under a burst of writes, says so once, and every token is stored or unknown', async () => {
  const logger = new MemoryLogger();
  const storage = new FileProfilerStorage({ directory, maxProfiles: WRITES, maxPendingWrites: MAX_PENDING, logger });
  let published = 0;
  const onDropped = (): void => {
    published++;
  };
  subscribe(PROFILE_DROPPED_CHANNEL, onDropped);
  const before = heapAfterGc();
  const tokens: string[] = [];
  for (let i = 0; i < WRITES; i++) {
    const profile = bulkyProfile(i);
    tokens.push(profile.token);
    void storage.write(profile);
  }
  const queued = storage.pendingWrites;
  const growth = heapAfterGc() - before;

  expect(growth).toBeLessThan(HEAP_GROWTH_LIMIT);
  expect(queued).toBeLessThanOrEqual(MAX_PENDING + 32);
  expect(storage.droppedWrites).toBe(WRITES - queued);
  // Each drop is published for metrics (@switchboard/metrics counts the channel).
  unsubscribe(PROFILE_DROPPED_CHANNEL, onDropped);
  expect(published).toBe(WRITES - queued);
  const warnings = logger.records.filter((record) => record.level === 'WARNING');
  expect(warnings).toHaveLength(1);
  expect(warnings[0]!.message).toContain('dropping the oldest queued profiles');

  // The newest profiles are the ones kept; readable at once, and on disk after flush.
  expect((await storage.read(tokens.at(-1)!))?.url).toBe(`http://localhost/scan-${WRITES - 1}`);
  expect(await storage.read(tokens[1]!)).toBeNull();
  expect(await storage.flush()).toBe(true);
  const restarted = new FileProfilerStorage({ directory, maxProfiles: WRITES });
  const stored = tokens.filter((token) => restarted.has(token));
  expect(stored).toEqual(tokens.filter((token) => storage.has(token)));
  expect(stored).toHaveLength(WRITES - storage.droppedWrites);
  for (const token of stored.slice(-3)) expect((await restarted.read(token))?.token).toBe(token);
  expect(logger.records.filter((record) => record.level === 'WARNING')).toHaveLength(1);
});
