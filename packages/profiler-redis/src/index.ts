/**
 * @switchboard/profiler-redis — profiler storage in Redis, so every process of an app behind a
 * load balancer finds the profiles of the others.
 * @module
 */
export { RedisProfilerStorage, type RedisProfilerStorageOptions } from './redis-profiler-storage.js';
export { DEFAULT_KEY_PREFIX } from './redis-keys.js';
