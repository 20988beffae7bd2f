/**
 * `@switchboard/rate-limit/redis` — the Redis store: limits shared by every process of an app.
 * Needs `@redis/client` (a peer dependency, installed by the application).
 * @module
 */
export { RedisStore, type RedisStoreOptions } from './redis-store.js';
export { CONSUME_SCRIPT } from './consume-script.js';
