import { deepStrictEqual, equal, notEqual } from 'node:assert/strict';
import type { ProfileData } from '../profile/profile.js';
import type { ProfilerStorage, ProfileSearch, StorageBounds } from '../storage/profiler-storage.js';
import { sampleProfile } from './sample-profile.js';

/** The storage a contract run checks, made afresh for each case. */
export interface StorageUnderTest<S extends ProfilerStorage = ProfilerStorage> {
  /** A new, empty storage with these bounds, reading the time from `now` (the case moves it forward). */
  create(bounds: StorageBounds, now: () => number): S | Promise<S>;
  /** Resolves once every write so far is stored (a write-behind storage's `flush`); default: nothing to wait for. */
  settle?(storage: S): Promise<unknown>;
}

/** One case of the contract: `run` resolves when the storage met it and rejects with an assertion error when not. */
export interface StorageContractCase {
  readonly name: string;
  run(): Promise<void>;
}

/**
 * What every profile storage must do, as cases a storage's own tests run with any test runner:
 * `for (const c of storageContract({ create: (bounds, now) => new MyStorage(bounds, now) })) it(c.name, c.run)`.
 * Each case makes its storages with `create`, settles them before it ends (so that no write is
 * in flight when the test removes what the storage wrote), and moves its own clock, which starts
 * at the real time: a storage may hand expiry times to its backend.
 */
export function storageContract<S extends ProfilerStorage>(subject: StorageUnderTest<S>): StorageContractCase[] {
  const settle = (storage: S): Promise<unknown> => subject.settle?.(storage) ?? Promise.resolve();
  const contractCase = (name: string, body: (run: ContractRun<S>) => Promise<void>): StorageContractCase => ({
    name,
    async run() {
      const created: S[] = [];
      let clock = Date.now();
      const run: ContractRun<S> = {
        now: () => clock,
        advance: (ms) => void (clock += ms),
        profile: (token, overrides) => sampleProfile(token, clock, overrides),
        create: async (bounds) => {
          const storage = await subject.create(bounds, () => clock);
          created.push(storage);
          return storage;
        },
        settle,
      };
      try {
        await body(run);
      } finally {
        await Promise.all(created.map(settle));
      }
    },
  });

  return [
    contractCase('reads back what it wrote, and nothing for an unknown token', async ({ create, profile, settle }) => {
      const storage = await create({});
      await storage.write(profile('aaaaaa'));
      const written = profile('aaaaaa');
      deepStrictEqual(await storage.read('aaaaaa'), written);
      equal(storage.has('aaaaaa'), true);
      await settle(storage);
      deepStrictEqual(await storage.read('aaaaaa'), written);
      equal(await storage.read('bbbbbb'), null);
      equal(storage.has('bbbbbb'), false);
    }),

    contractCase('keeps at most maxProfiles, dropping the oldest', async ({ create, profile, settle }) => {
      const storage = await create({ maxProfiles: 3 });
      for (const token of ['000001', '000002', '000003', '000004', '000005']) await storage.write(profile(token));
      await settle(storage);
      equal(storage.size, 3);
      equal(await storage.read('000001'), null);
      equal(await storage.read('000002'), null);
      deepStrictEqual(await tokensFound(storage, { limit: 10 }), ['000005', '000004', '000003']);
    }),

    contractCase('writing a token again replaces its profile and makes it the newest', async ({ create, profile, settle }) => {
      const storage = await create({ maxProfiles: 2 });
      await storage.write(profile('00000a'));
      await storage.write(profile('00000b'));
      await storage.write(profile('00000a', { statusCode: 500 }));
      await storage.write(profile('00000c'));
      await settle(storage);
      deepStrictEqual(
        (await storage.find({})).map((p) => [p.token, p.statusCode]),
        [
          ['00000c', 200],
          ['00000a', 500],
        ],
      );
      equal((await storage.read('00000a'))?.statusCode, 500);
    }),

    contractCase('drops profiles older than maxAgeMs', async ({ create, profile, settle, advance }) => {
      const storage = await create({ maxAgeMs: 60_000 });
      await storage.write(profile('0000aa'));
      advance(40_000);
      await storage.write(profile('0000bb'));
      await settle(storage);
      advance(40_000);
      equal(await storage.read('0000aa'), null);
      notEqual(await storage.read('0000bb'), null);
      await storage.write(profile('0000cc'));
      deepStrictEqual(await tokensFound(storage, {}), ['0000cc', '0000bb']);
    }),

    contractCase(
      'finds by ip, method, url substring, status, type and time range, newest first, up to the limit',
      async ({ create, profile, settle, advance, now }) => {
        const storage = await create({});
        const start = now();
        await storage.write(profile('000a01', { ip: '10.0.0.1', method: 'GET', url: 'http://h/robots.txt', statusCode: 404 }));
        advance(10);
        await storage.write(profile('000a02', { ip: '10.0.0.2', method: 'POST', url: 'http://h/api/items', statusCode: 201 }));
        advance(10);
        await storage.write(
          profile('000a03', { ip: '10.0.0.1', method: 'GET', url: 'http://h/api/items', statusCode: 200, virtualType: 'command' }),
        );
        advance(10);
        await storage.write(profile('000a04', { ip: '::ffff:10.0.0.1', method: 'GET', url: 'http://h/favicon.ico', statusCode: 404 }));
        const tokens = (search: ProfileSearch) => tokensFound(storage, search);
        // Once before the writes are stored (a write-behind storage answers from its queue), once after.
        for (let round = 0; round < 2; round++) {
          deepStrictEqual(await tokens({}), ['000a04', '000a03', '000a02', '000a01']);
          deepStrictEqual(await tokens({ ip: '10.0.0.1' }), ['000a04', '000a03', '000a01']);
          deepStrictEqual(await tokens({ method: 'post' }), ['000a02']);
          deepStrictEqual(await tokens({ url: '/api/' }), ['000a03', '000a02']);
          deepStrictEqual(await tokens({ statusCode: 404 }), ['000a04', '000a01']);
          deepStrictEqual(await tokens({ virtualType: 'command' }), ['000a03']);
          deepStrictEqual(await tokens({ start: start + 10, end: start + 20 }), ['000a03', '000a02']);
          deepStrictEqual(await tokens({ limit: 2 }), ['000a04', '000a03']);
          deepStrictEqual(await tokens({ limit: 0 }), []);
          deepStrictEqual(
            { ...(await storage.find({ limit: 1 }))[0] },
            {
              token: '000a04',
              parentToken: null,
              ip: '::ffff:10.0.0.1',
              method: 'GET',
              url: 'http://h/favicon.ico',
              time: start + 30,
              statusCode: 404,
              virtualType: 'request',
            },
          );
          await settle(storage);
        }
      },
    ),

    contractCase('treats tokens that are not lowercase hex as unknown', async ({ create, profile, settle }) => {
      const storage = await create({});
      await storage.write(profile('abcdef'));
      await settle(storage);
      for (const hostile of ['../../etc/passwd', '..', '%2e%2e', 'ABCDEF', '', 'abcdef/../abcdef', "abc'def"]) {
        equal(await storage.read(hostile), null, hostile);
        equal(storage.has(hostile), false, hostile);
      }
    }),

    contractCase('purges everything', async ({ create, profile, settle }) => {
      const storage = await create({});
      await storage.write(profile('abcdef'));
      await settle(storage);
      await storage.purge();
      equal(storage.size, 0);
      equal(storage.has('abcdef'), false);
      equal(await storage.read('abcdef'), null);
      deepStrictEqual(await storage.find({}), []);
    }),
  ];
}

/** What a case works with: its storages, its clock and its profiles. */
interface ContractRun<S extends ProfilerStorage> {
  create(bounds: StorageBounds): Promise<S>;
  settle(storage: S): Promise<unknown>;
  now(): number;
  advance(ms: number): void;
  profile(token: string, overrides?: Partial<ProfileData>): ProfileData;
}

async function tokensFound(storage: ProfilerStorage, search: ProfileSearch): Promise<string[]> {
  return (await storage.find(search)).map((summary) => summary.token);
}
