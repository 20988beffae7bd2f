/**
 * The Redis storage against a real redis-server: what one storage writes, another (standing for
 * another process) reads and finds; the bounds and the expiry hold inside Redis itself.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MemoryLogger } from '@switchboard/http-kernel';
import { Profile, Profiler } from '@switchboard/profiler';
import { summaryOf, type ProfileData } from '@switchboard/profiler/storage';
import { RedisProfilerStorage, type RedisProfilerStorageOptions } from '../src/index.js';
import { RedisServer, type RedisInspector } from '../../../test/kit/services/redis-server.js';

let redis: RedisServer;
let inspector: RedisInspector;
const storages: RedisProfilerStorage[] = [];
let prefixes = 0;

beforeAll(async () => {
  redis = await RedisServer.start();
  inspector = await redis.inspector();
});

afterAll(async () => {
  await Promise.all(storages.map((storage) => storage.close()));
  await inspector?.close();
  await redis?.close();
});

/** Two connected storages on one prefix: the writer, and a reader standing for another process. */
async function storagePair(
  options: RedisProfilerStorageOptions = {},
  now?: () => number,
): Promise<[RedisProfilerStorage, RedisProfilerStorage, string]> {
  const keyPrefix = `test${++prefixes}:`;
  const make = () => new RedisProfilerStorage({ url: redis.url, keyPrefix, ...options }, now);
  const pair: [RedisProfilerStorage, RedisProfilerStorage] = [make(), make()];
  storages.push(...pair);
  await vi.waitFor(() => expect(pair.map((storage) => storage.status.available)).toEqual([true, true]), { timeout: 10_000, interval: 5 });
  return [...pair, keyPrefix];
}

const BASE_TIME = Date.now();

function profile(n: number, fields: Partial<ProfileData> = {}): ProfileData {
  return {
    token: n.toString(16).padStart(6, '0'),
    parentToken: null,
    ip: '127.0.0.1',
    method: 'GET',
    url: `http://localhost/page-${n}`,
    time: BASE_TIME + n,
    statusCode: 200,
    virtualType: 'request',
    childTokens: [],
    collectors: { request: { n } },
    ...fields,
  };
}

async function keysUnder(prefix: string): Promise<string[]> {
  return (await inspector.keys(`${prefix}*`)).map(String).sort();
}

describe('RedisProfilerStorage on a real redis-server', () => {
  it('ping resolves while Redis answers and rejects once the storage is closed (a readiness check)', async () => {
    const [storage] = await storagePair();
    await expect(storage.ping()).resolves.toBeUndefined();
    await storage.close();
    await expect(storage.ping()).rejects.toThrow('is closed');
  });

  it('a profile written by one process is read by another', async () => {
    const [writer, reader] = await storagePair();
    await writer.write(profile(1));
    // Readable at once from the writing process, before Redis has it.
    expect((await writer.read('000001'))?.url).toBe('http://localhost/page-1');
    expect(await writer.flush()).toBe(true);
    expect(await reader.read('000001')).toEqual(profile(1));
    expect(await reader.read('00000f')).toBeNull();
    expect(await reader.read('../etc')).toBeNull();
    expect(writer.has('000001')).toBe(true);
    expect(writer.size).toBe(1);
    expect(reader.status).toEqual({ available: true, message: `Redis at 127.0.0.1:${redis.port}.` });
  });

  it('finds newest first through the indexes: ip, method, status, type, URL, time window, limit', async () => {
    const [writer, reader] = await storagePair();
    const written = [
      profile(1, { ip: '10.0.0.1', statusCode: 404 }),
      profile(2, { ip: '::ffff:10.0.0.1', method: 'POST', statusCode: 201, url: 'http://localhost/api/items' }),
      profile(3, { ip: '10.0.0.2', statusCode: 404, url: 'http://localhost/robots.txt' }),
      profile(4, { ip: '10.0.0.1', virtualType: 'command' }),
      profile(5, { ip: '10.0.0.1', statusCode: 404, url: 'http://localhost/robots.txt?x=1' }),
    ];
    for (const data of written) await writer.write(data);
    await writer.flush();
    const tokens = async (search: Parameters<RedisProfilerStorage['find']>[0]) =>
      (await reader.find(search)).map((summary) => summary.token);

    expect(await tokens({ limit: 10 })).toEqual(['000005', '000004', '000003', '000002', '000001']);
    expect(await tokens({ limit: 2 })).toEqual(['000005', '000004']);
    expect(await tokens({ ip: '10.0.0.1' })).toEqual(['000005', '000004', '000002', '000001']);
    expect(await tokens({ method: 'post' })).toEqual(['000002']);
    expect(await tokens({ statusCode: 404 })).toEqual(['000005', '000003', '000001']);
    expect(await tokens({ virtualType: 'command' })).toEqual(['000004']);
    expect(await tokens({ url: 'robots' })).toEqual(['000005', '000003']);
    expect(await tokens({ ip: '10.0.0.1', statusCode: 404, virtualType: 'request' })).toEqual(['000005', '000001']);
    expect(await tokens({ ip: '10.0.0.1', statusCode: 404, url: 'robots' })).toEqual(['000005']);
    expect(await tokens({ start: BASE_TIME + 2, end: BASE_TIME + 4 })).toEqual(['000004', '000003', '000002']);
    expect(await tokens({ ip: '10.0.0.1', statusCode: 404, start: BASE_TIME + 2 })).toEqual(['000005']);
    expect(await tokens({ ip: '10.9.9.9' })).toEqual([]);
    expect((await reader.find({ limit: 1 }))[0]).toStrictEqual(summaryOf(written[4]!));
  });

  it('latest: of profiles written in the same millisecond, the one written last (the main request)', async () => {
    const [writer, reader] = await storagePair();
    const profiler = new Profiler({ storage: reader });
    // The sub-request's token sorts after the main request's: only the write order can put the main request first.
    await writer.write(profile(2, { time: BASE_TIME, parentToken: '000001' }));
    await writer.write(profile(1, { time: BASE_TIME, childTokens: ['000002'] }));
    await writer.flush();
    expect((await profiler.latest())?.token).toBe('000001');
    expect((await profiler.latest({ ip: '127.0.0.1' }))?.token).toBe('000001');
    expect(await profiler.latest({ ip: '127.0.0.2' })).toBeNull();
  });

  it('keeps parent and child links: the profiler loads both from another process', async () => {
    const [writer, reader] = await storagePair();
    const parent = new Profile({ ...profile(0xa), collectors: {} });
    const child = new Profile({ ...profile(0xb, { url: 'http://localhost/_fragment' }), collectors: {} });
    parent.addChild(child);
    await new Profiler({ storage: writer }).save([child, parent]);
    await writer.flush();

    const loaded = await new Profiler({ storage: reader }).loadProfile('00000a');
    expect(loaded?.childTokens).toEqual(['00000b']);
    expect(loaded?.children.map((each) => each.url)).toEqual(['http://localhost/_fragment']);
    const loadedChild = await new Profiler({ storage: reader }).loadProfile('00000b');
    expect(loadedChild?.parent?.token).toBe('00000a');
  });

  it('keeps at most maxProfiles: the oldest are evicted with their index entries, and no key is left behind', async () => {
    const [writer, reader, prefix] = await storagePair({ maxProfiles: 5 });
    for (let n = 1; n <= 12; n++) await writer.write(profile(n, { ip: `10.0.0.${n}`, statusCode: 200 + n }));
    await writer.flush();

    expect((await reader.find({ limit: 100 })).map((summary) => summary.token)).toEqual(['00000c', '00000b', '00000a', '000009', '000008']);
    expect(await reader.read('000007')).toBeNull();
    expect(await reader.find({ ip: '10.0.0.1' })).toEqual([]);
    expect(writer.size).toBe(5);
    expect(writer.has('000001')).toBe(false);
    const live = [8, 9, 10, 11, 12];
    expect(await keysUnder(prefix)).toEqual(
      [
        'by-method:GET',
        'by-time',
        'by-type:request',
        'entries',
        'seq',
        ...live.map((n) => `by-ip:10.0.0.${n}`),
        ...live.map((n) => `by-status:${200 + n}`),
        ...live.map((n) => `profile:${n.toString(16).padStart(6, '0')}`),
      ]
        .map((key) => prefix + key)
        .sort(),
    );
    expect(await inspector.zCard(`${prefix}by-method:GET`)).toBe(5);
    expect(await inspector.hLen(`${prefix}entries`)).toBe(5);
  });

  it('every key expires: a profile when it is maxAgeMs old, the indexes once nothing was written for maxAgeMs', async () => {
    const maxAgeMs = 60_000;
    const [writer, , prefix] = await storagePair({ maxAgeMs });
    await writer.write(profile(1, { time: Date.now() }));
    await writer.flush();
    for (const key of await keysUnder(prefix)) {
      const ttl = await inspector.pTTL(key);
      expect(ttl, key).toBeGreaterThan(0);
      expect(ttl, key).toBeLessThanOrEqual(maxAgeMs);
    }
  });

  it('a profile disappears from Redis at its age limit, and from searches past it', async () => {
    let now = Date.now();
    const maxAgeMs = 60_000;
    const [writer, reader, prefix] = await storagePair({ maxAgeMs }, () => now);
    // 100 ms short of its age limit: Redis drops it itself.
    await writer.write(profile(1, { time: now - maxAgeMs + 100 }));
    await writer.write(profile(2, { time: now }));
    await writer.flush();
    await vi.waitFor(async () => expect(await inspector.exists(`${prefix}profile:000001`)).toBe(0), { timeout: 10_000, interval: 20 });
    expect(await reader.read('000001')).toBeNull();

    // Past the age limit by the storage's clock, a profile still in Redis is neither read nor found.
    now += maxAgeMs + 1;
    expect(await reader.read('000002')).toBeNull();
    expect(await reader.find({})).toEqual([]);
    // An expired profile is not written at all.
    await writer.write(profile(3, { time: now - maxAgeMs - 1 }));
    expect(writer.pendingWrites).toBe(0);
  });

  it('Redis refusing writes (paused): writes wait up to the bound, time out as one outage, and go through once it resumes', async () => {
    const logger = new MemoryLogger();
    const [writer, reader] = await storagePair({ maxPendingWrites: 3, commandTimeoutMs: 200, logger });
    await inspector.sendCommand(['CLIENT', 'PAUSE', '60000', 'WRITE']);
    try {
      await writer.write(profile(1));
      await vi.waitFor(() => expect(writer.status.available).toBe(false), { timeout: 10_000, interval: 5 });
      for (let n = 2; n <= 8; n++) await writer.write(profile(n));
      expect(writer.pendingWrites).toBe(3);
      expect(writer.droppedWrites).toBe(5);
      // Reads still work while writes wait: the storage stays unavailable, said once.
      expect(await writer.read('000008')).not.toBeNull();
      expect(await reader.read('000001')).toBeNull();
      expect(writer.status.available).toBe(false);
      expect(writer.status.message).toContain('3 new profiles wait in this process (at most 3), 5 dropped since start');
    } finally {
      await inspector.sendCommand(['CLIENT', 'UNPAUSE']);
    }
    expect(await writer.flush()).toBe(true);
    expect(writer.status.available).toBe(true);
    // The first write, timed out but already sent, ran once Redis resumed: counted as dropped, yet stored.
    expect((await reader.find({ limit: 10 })).map((summary) => summary.token)).toEqual(['000008', '000007', '000006', '000001']);
    expect(logger.records.filter((record) => record.level !== 'INFO')).toEqual([
      expect.objectContaining({ level: 'ERROR', message: expect.stringContaining('is unavailable (') }),
    ]);
  });

  it('damaged data under its keys reads as absent, not as an error', async () => {
    const [writer, reader, prefix] = await storagePair();
    await writer.write(profile(1));
    await writer.flush();
    await inspector.set(`${prefix}profile:00000d`, '{not json');
    await inspector.hSet(`${prefix}entries`, '00000d', '{not json');
    await inspector.zAdd(`${prefix}by-time`, { score: (BASE_TIME + 99) * 1024, value: '00000d' });
    expect(await reader.read('00000d')).toBeNull();
    expect((await reader.find({})).map((summary) => summary.token)).toEqual(['000001']);
    expect(reader.status.available).toBe(true);
  });

  it('purge removes every key under its prefix and none of another', async () => {
    const [first, , prefix] = await storagePair();
    const [other, , otherPrefix] = await storagePair();
    await first.write(profile(1));
    await other.write(profile(2));
    await Promise.all([first.flush(), other.flush()]);
    await first.purge();
    expect(await keysUnder(prefix)).toEqual([]);
    expect(await keysUnder(otherPrefix)).not.toEqual([]);
    expect(first.has('000001')).toBe(false);
  });

  it('Redis connected but not answering (paused): reads, searches, ping, purge and close end within the deadline, while it is still paused', async () => {
    const logger = new MemoryLogger();
    const [writer, reader] = await storagePair({ commandTimeoutMs: 200, logger });
    await writer.write(profile(1));
    expect(await writer.flush()).toBe(true);
    // Far longer than the test waits: each answer below comes from the deadline, not from Redis.
    const pause = await redis.pauseAll(120_000);
    try {
      await writer.write(profile(2));
      expect(await reader.read('000001')).toBeNull();
      expect(await reader.find({})).toEqual([]);
      // What waits in this process is still found.
      expect((await writer.find({})).map((summary) => summary.token)).toEqual(['000002']);
      await expect(reader.ping()).rejects.toThrow('no answer within 200 ms');
      await expect(reader.purge()).rejects.toThrow('no answer within 200 ms');
      expect(reader.status.available).toBe(false);
      await writer.close(100);
      await reader.close();
      expect(pause.stillPaused()).toBe(true);
      expect(logger.records.map((record) => `${record.level} ${record.message}`)).toEqual([
        expect.stringMatching(/^ERROR Profiler storage: Redis at 127\.0\.0\.1:\d+ is unavailable \(no answer within 200 ms\)/),
        expect.stringMatching(/^ERROR Profiler storage: Redis at 127\.0\.0\.1:\d+ is unavailable \(no answer within 200 ms\)/),
        expect.stringMatching(
          /^WARNING Profiler storage: not every queued profile was written .* within 100 ms; the rest are dropped \(1 dropped/,
        ),
      ]);
    } finally {
      await redis.restart();
    }
  }, 60_000);
});
