/** The storage contract every profile storage meets (the memory storage's tests), against a real redis-server. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { storageContract } from '@switchboard/profiler/testing';
import { RedisProfilerStorage } from '../src/index.js';
import { RedisServer } from '../../../test/kit/services/redis-server.js';

let redis: RedisServer;
const storages: RedisProfilerStorage[] = [];
let prefixes = 0;

beforeAll(async () => {
  redis = await RedisServer.start();
});

afterAll(async () => {
  await Promise.all(storages.map((storage) => storage.close()));
  await redis?.close();
});

const redisContract = storageContract({
  async create(bounds, now) {
    const storage = new RedisProfilerStorage({ url: redis.url, keyPrefix: `contract${++prefixes}:`, ...bounds }, now);
    storages.push(storage);
    await vi.waitFor(() => expect(storage.status.available).toBe(true), { timeout: 10_000, interval: 5 });
    return storage;
  },
  settle: (storage) => storage.flush(),
});

describe('RedisProfilerStorage (the storage contract)', () => {
  for (const contract of redisContract) it(contract.name, contract.run);
});
