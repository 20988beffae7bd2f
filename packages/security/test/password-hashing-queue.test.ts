import { describe, expect, it } from 'vitest';
import { HttpError, MemoryLogger } from '@switchboard/http-kernel';
import { ClientClosedRequestError, PasswordHashingQueue } from '../src/index.js';

/** A hash that finishes when the test says so. */
function controlledHash() {
  let finish!: (value: boolean) => void;
  const started = { value: false };
  const hash = () => {
    started.value = true;
    return new Promise<boolean>((resolve) => (finish = resolve));
  };
  return { hash, started, finish: (value = true) => finish(value) };
}

describe('PasswordHashingQueue', () => {
  it('runs `concurrency` hashes, queues `maxQueued`, and refuses the next with 503 and Retry-After', async () => {
    const logger = new MemoryLogger();
    const queue = new PasswordHashingQueue({ concurrency: 1, maxQueued: 2, logger });
    const [first, second, third] = [controlledHash(), controlledHash(), controlledHash()];
    const results = [queue.run(first.hash), queue.run(second.hash), queue.run(third.hash)];
    const refused = await queue.run(controlledHash().hash).catch((error: unknown) => error);

    expect(refused).toBeInstanceOf(HttpError);
    expect((refused as HttpError).status).toBe(503);
    expect(Number((refused as HttpError).headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(queue.stats).toMatchObject({ running: 1, queued: 2, refused: 1 });
    expect([first.started.value, second.started.value, third.started.value]).toEqual([true, false, false]);

    first.finish();
    await results[0];
    expect(second.started.value).toBe(true);
    second.finish(false);
    await expect(results[1]).resolves.toBe(false);
    third.finish();
    await expect(results[2]).resolves.toBe(true);
    expect(queue.stats).toMatchObject({ running: 0, queued: 0, completed: 3, refused: 1, skipped: 0 });
    expect(logger.records.map((record) => record.level)).toEqual(['WARNING']);
  });

  it('skips a waiting hash whose client has gone when its turn comes', async () => {
    const queue = new PasswordHashingQueue({ concurrency: 1, maxQueued: 4 });
    const running = controlledHash();
    const abandoned = controlledHash();
    const kept = controlledHash();
    let gone = false;
    const first = queue.run(running.hash);
    const skipped = queue.run(abandoned.hash, () => gone);
    const last = queue.run(kept.hash);

    gone = true;
    running.finish();
    await first;
    await expect(skipped).rejects.toBeInstanceOf(ClientClosedRequestError);
    expect(abandoned.started.value).toBe(false);
    expect(kept.started.value).toBe(true);
    kept.finish();
    await last;
    expect(queue.stats).toMatchObject({ completed: 2, skipped: 1 });
  });

  it('refuses a concurrency that would take the whole thread pool', () => {
    expect(() => new PasswordHashingQueue({ concurrency: 4 })).toThrow(/below the 4 threads/);
    expect(() => new PasswordHashingQueue({ maxQueued: -1 })).toThrow(RangeError);
  });
});
