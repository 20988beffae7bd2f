/**
 * What every profile storage must do, as one suite a storage's own test file runs against it:
 * `describeStorageContract('MyStorage', (bounds, now) => new MyStorage(...))`. The storage is given
 * the suite's clock; `settle` waits until what was written is stored (a write-behind storage's
 * `flush`), for assertions on `size`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ProfileData } from '../../src/storage.js';
import type { ProfilerStorage, ProfileSearch, StorageBounds } from '../../src/storage.js';

export interface StorageUnderTest {
  create(bounds: StorageBounds, now: () => number): ProfilerStorage | Promise<ProfilerStorage>;
  /** Resolves once every write so far is stored; default: nothing to wait for. */
  settle?(storage: ProfilerStorage): Promise<unknown>;
}

export function describeStorageContract(name: string, subject: StorageUnderTest): void {
  // Real epoch time: a storage may hand expiry times to its backend (Redis expires keys by itself).
  let clock = Date.now();
  const now = () => clock;
  const settle = (storage: ProfilerStorage) => subject.settle?.(storage) ?? Promise.resolve();
  // Every storage a test created is settled after it, so no write is still in flight when the
  // storage's test file removes what the storage wrote.
  const created: ProfilerStorage[] = [];
  const create = async (bounds: StorageBounds, clockNow: () => number) => {
    const storage = await subject.create(bounds, clockNow);
    created.push(storage);
    return storage;
  };

  const profile = (token: string, overrides: Partial<ProfileData> = {}) => sampleProfile(token, clock, overrides);

  describe(`${name} (the storage contract)`, () => {
    afterEach(async () => {
      await Promise.all(created.splice(0).map(settle));
    });

    it('reads back what it wrote, and nothing for an unknown token', async () => {
      const storage = await create({}, now);
      await storage.write(profile('aaaaaa'));
      expect(await storage.read('aaaaaa')).toEqual(profile('aaaaaa'));
      expect(storage.has('aaaaaa')).toBe(true);
      await settle(storage);
      expect(await storage.read('aaaaaa')).toEqual(profile('aaaaaa'));
      expect(await storage.read('bbbbbb')).toBeNull();
      expect(storage.has('bbbbbb')).toBe(false);
    });

    it('keeps at most maxProfiles, dropping the oldest', async () => {
      const storage = await create({ maxProfiles: 3 }, now);
      for (const token of ['000001', '000002', '000003', '000004', '000005']) await storage.write(profile(token));
      await settle(storage);
      expect(storage.size).toBe(3);
      expect(await storage.read('000001')).toBeNull();
      expect(await storage.read('000002')).toBeNull();
      expect((await storage.find({ limit: 10 })).map((p) => p.token)).toEqual(['000005', '000004', '000003']);
    });

    it('writing a token again replaces its profile and makes it the newest', async () => {
      const storage = await create({ maxProfiles: 2 }, now);
      await storage.write(profile('00000a'));
      await storage.write(profile('00000b'));
      await storage.write(profile('00000a', { statusCode: 500 }));
      await storage.write(profile('00000c'));
      await settle(storage);
      expect((await storage.find({})).map((p) => [p.token, p.statusCode])).toEqual([
        ['00000c', 200],
        ['00000a', 500],
      ]);
      expect((await storage.read('00000a'))?.statusCode).toBe(500);
    });

    it('drops profiles older than maxAgeMs', async () => {
      const storage = await create({ maxAgeMs: 60_000 }, now);
      await storage.write(profile('0000aa'));
      clock += 40_000;
      await storage.write(profile('0000bb'));
      await settle(storage);
      clock += 40_000;
      expect(await storage.read('0000aa')).toBeNull();
      expect(await storage.read('0000bb')).not.toBeNull();
      await storage.write(profile('0000cc'));
      expect((await storage.find({})).map((p) => p.token)).toEqual(['0000cc', '0000bb']);
    });

    it('finds by ip, method, url substring, status, type and time range, newest first, up to the limit', async () => {
      const storage = await create({}, now);
      const start = clock;
      await storage.write(profile('000a01', { ip: '10.0.0.1', method: 'GET', url: 'http://h/robots.txt', statusCode: 404 }));
      clock += 10;
      await storage.write(profile('000a02', { ip: '10.0.0.2', method: 'POST', url: 'http://h/api/items', statusCode: 201 }));
      clock += 10;
      await storage.write(
        profile('000a03', { ip: '10.0.0.1', method: 'GET', url: 'http://h/api/items', statusCode: 200, virtualType: 'command' }),
      );
      clock += 10;
      await storage.write(profile('000a04', { ip: '::ffff:10.0.0.1', method: 'GET', url: 'http://h/favicon.ico', statusCode: 404 }));
      const tokens = async (search: ProfileSearch) => (await storage.find(search)).map((p) => p.token);
      // Once before the writes are stored (a write-behind storage answers from its queue), once after.
      for (let round = 0; round < 2; round++) {
        expect(await tokens({})).toEqual(['000a04', '000a03', '000a02', '000a01']);
        expect(await tokens({ ip: '10.0.0.1' })).toEqual(['000a04', '000a03', '000a01']);
        expect(await tokens({ method: 'post' })).toEqual(['000a02']);
        expect(await tokens({ url: '/api/' })).toEqual(['000a03', '000a02']);
        expect(await tokens({ statusCode: 404 })).toEqual(['000a04', '000a01']);
        expect(await tokens({ virtualType: 'command' })).toEqual(['000a03']);
        expect(await tokens({ start: start + 10, end: start + 20 })).toEqual(['000a03', '000a02']);
        expect(await tokens({ limit: 2 })).toEqual(['000a04', '000a03']);
        expect(await tokens({ limit: 0 })).toEqual([]);
        expect((await storage.find({ limit: 1 }))[0]).toEqual({
          token: '000a04',
          parentToken: null,
          ip: '::ffff:10.0.0.1',
          method: 'GET',
          url: 'http://h/favicon.ico',
          time: start + 30,
          statusCode: 404,
          virtualType: 'request',
        });
        await settle(storage);
      }
    });

    it('treats tokens that are not lowercase hex as unknown', async () => {
      const storage = await create({}, now);
      await storage.write(profile('abcdef'));
      await settle(storage);
      for (const hostile of ['../../etc/passwd', '..', '%2e%2e', 'ABCDEF', '', 'abcdef/../abcdef', "abc'def"]) {
        expect(await storage.read(hostile)).toBeNull();
        expect(storage.has(hostile)).toBe(false);
      }
    });

    it('purges everything', async () => {
      const storage = await create({}, now);
      await storage.write(profile('abcdef'));
      await settle(storage);
      await storage.purge();
      expect(storage.size).toBe(0);
      expect(storage.has('abcdef')).toBe(false);
      expect(await storage.read('abcdef')).toBeNull();
      expect(await storage.find({})).toEqual([]);
    });
  });
}

/** A small profile of `token` at `time`, as the storage tests write them. */
export function sampleProfile(token: string, time: number, overrides: Partial<ProfileData> = {}): ProfileData {
  return {
    token,
    parentToken: null,
    ip: '127.0.0.1',
    method: 'GET',
    url: `http://localhost/${token}`,
    time,
    statusCode: 200,
    virtualType: 'request',
    childTokens: [],
    collectors: { request: { note: token } },
    ...overrides,
  };
}
