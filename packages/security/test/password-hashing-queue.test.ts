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

describe('PasswordHashingQueue: reserving a place before the hash', () => {
  it('a reserved place counts as waiting: a full queue refuses the next reservation at once; a released place is free again', async () => {
    const queue = new PasswordHashingQueue({ concurrency: 1, maxQueued: 1 });
    const running = controlledHash();
    const first = queue.reserve();
    const second = queue.reserve();
    expect(() => queue.reserve()).toThrow(expect.objectContaining({ status: 503 }));
    second.release();
    second.release(); // a second release gives nothing back twice
    const third = queue.reserve();
    expect(() => queue.reserve()).toThrow(expect.objectContaining({ status: 503 }));

    const result = first.run(running.hash);
    expect(running.started.value).toBe(true);
    const waiting = controlledHash();
    const queued = third.run(waiting.hash);
    expect(queue.stats).toMatchObject({ running: 1, queued: 1, refused: 2 });
    // A place is used once.
    await expect(first.run(controlledHash().hash)).rejects.toThrow(/already used or released/);
    first.release(); // used: nothing to give back
    expect(() => queue.reserve()).toThrow(expect.objectContaining({ status: 503 }));

    running.finish();
    await result;
    waiting.finish(false);
    await expect(queued).resolves.toBe(false);
    expect(queue.stats).toMatchObject({ running: 0, queued: 0, completed: 2 });
  });

  it('writes the refusals of a flood as one warning a second, each with the count it stands for', async () => {
    const logger = new MemoryLogger();
    const queue = new PasswordHashingQueue({ concurrency: 1, maxQueued: 0, logger });
    const running = controlledHash();
    const result = queue.run(running.hash);
    const refusals = Array.from({ length: 12 }, () => queue.run(controlledHash().hash).catch((error: unknown) => error));
    expect(await Promise.all(refusals)).toEqual(Array.from({ length: 12 }, () => expect.objectContaining({ status: 503 })));

    const warnings = () => logger.records.filter((record) => record.level === 'WARNING');
    // The first at once; the eleven that followed within its second (here: the same tick) as one line at the second's end.
    expect(warnings().map((record) => record.context['count'])).toEqual([1]);
    await expect.poll(() => warnings().length, { timeout: 60_000 }).toBe(2);
    const [first, rest] = warnings();
    expect(first).toMatchObject({ message: 'Password check refused: the queue is full.', context: { count: 1, refused_total: 1 } });
    expect(rest).toMatchObject({
      message: '11 password checks refused in the last second: the queue is full.',
      context: { count: 11, refused_total: 12, channel: 'security' },
    });
    running.finish();
    await result;
  });
});
