/**
 * `@switchboard/redis-connection` — one Redis connection for Switchboard's Redis stores: reconnects,
 * logs an outage once, bounds every command by a deadline, runs scripts by SHA. Needs
 * `@redis/client` (a peer dependency, installed by the application).
 * @module
 */
export { RedisConnection, type RedisClient, type RedisConnectionOptions, type RedisOutage, type RunOptions } from './redis-connection.js';
export { RedisCommandTimeoutError } from './redis-command-timeout-error.js';
export { RedisScript } from './redis-script.js';
