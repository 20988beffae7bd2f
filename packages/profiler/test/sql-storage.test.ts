/**
 * A third storage in one small file (`support/sql-profiler-storage.ts`, PostgreSQL on top of the
 * `WriteBehindQueue`) meets the same contract as the memory, file and Redis storages, on PGlite.
 */
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryLogger } from '@switchboard/http-kernel';
import { pgliteDataFolder, type PgliteDataFolder } from '../../../test/kit/services/pglite-data.js';
import { storageContract } from '../src/testing.js';
import { SqlProfilerStorage } from './support/sql-profiler-storage.js';

let folder: PgliteDataFolder;
let database: PGlite;
beforeAll(async () => {
  // A copy of the test run's template cluster: no initdb of its own.
  folder = await pgliteDataFolder();
  database = new PGlite(folder.path);
});
afterAll(async () => {
  await database?.close();
  await folder?.remove();
});
let tables = 0;

describe('SqlProfilerStorage (the storage contract)', () => {
  const sql = storageContract({
    create: (bounds, now) => new SqlProfilerStorage({ database, table: `profiles_${++tables}`, ...bounds }, now),
    settle: (storage) => storage.flush(),
  });
  for (const contract of sql) it(contract.name, contract.run);
});

it('a batch the database refuses is dropped, counted and said once; later batches go through', async () => {
  const logger = new MemoryLogger();
  const storage = new SqlProfilerStorage({ database, table: `profiles_${++tables}`, logger });
  const profile = (token: string, url: string) => ({
    token,
    parentToken: null,
    ip: '127.0.0.1',
    method: 'GET',
    url,
    time: Date.now(),
    statusCode: 200,
    virtualType: 'request',
    childTokens: [],
    collectors: {},
  });
  // PostgreSQL text cannot hold a NUL character: the insert fails.
  await storage.write(profile('00000a', 'http://localhost/\u0000'));
  await storage.flush();
  await storage.write(profile('00000b', 'http://localhost/b'));
  await storage.flush();
  expect(storage.has('00000a')).toBe(false);
  expect((await storage.read('00000b'))?.url).toBe('http://localhost/b');
  expect(logger.records.map((record) => [record.level, record.message])).toEqual([
    ['ERROR', expect.stringContaining('the profiles of that batch are dropped')],
  ]);
});
