/** The storage contract every profile storage meets (the memory storage's tests), against a real redis-server. */
import { afterAll, beforeAll, expect, vi } from 'vitest';
import { describeStorageContract } from '../../profiler/test/support/storage-contract.js';
import { RedisProfilerStorage } from '../src/index.js';
import { RedisServer } from './support/redis-server.js';

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

describeStorageContract('RedisProfilerStorage', {
  async create(bounds, now) {
    const storage = new RedisProfilerStorage({ url: redis.url, keyPrefix: `contract${++prefixes}:`, ...bounds }, now);
    storages.push(storage);
    await vi.waitFor(() => expect(storage.status.available).toBe(true), { timeout: 10_000, interval: 5 });
    return storage;
  },
  settle: (storage) => (storage as RedisProfilerStorage).flush(),
});
