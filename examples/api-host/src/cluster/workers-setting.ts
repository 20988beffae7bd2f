import { ConfigError } from '../config.js';

/** More workers than this is a typo, not a deployment (each worker holds its own pools and caches). */
export const MAX_WORKERS = 64;

/**
 * `WORKERS` (default 1): how many processes serve the port. Above 1 the host runs as a `node:cluster`
 * primary with that many workers, which needs a database every worker reaches (`DATABASE_URL`): the
 * embedded PGlite lives inside one process. In debug mode it also refuses `PROFILER_DIR`: the file
 * storage indexes, evicts and deletes as if it were alone in its directory. With login throttling or
 * the per-client limiter on, it needs Redis (`REDIS_URL` or `PROFILER_REDIS_URL`) to count in.
 */
export function workersFromEnv(env: NodeJS.ProcessEnv, debug: boolean): number {
  const text = env['WORKERS']?.trim() ?? '';
  if (text === '') return 1;
  const workers = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(workers) || workers < 1 || workers > MAX_WORKERS) {
    throw new ConfigError(`WORKERS must be a whole number from 1 to ${MAX_WORKERS}, got "${text}".`);
  }
  if (workers > 1 && (env['DATABASE_URL']?.trim() ?? '') === '') {
    throw new ConfigError(
      `WORKERS=${workers} needs DATABASE_URL: the embedded database (PGlite) runs inside one process, so several workers cannot share it. ` +
        'Set DATABASE_URL to a PostgreSQL server, or run one process (WORKERS=1).',
    );
  }
  if (workers > 1 && debug && (env['PROFILER_DIR']?.trim() ?? '') !== '') {
    throw new ConfigError(
      `WORKERS=${workers} cannot share PROFILER_DIR: each worker's file storage would evict and delete the others' profiles. ` +
        'Set PROFILER_REDIS_URL to share profiles between workers, or run one process (WORKERS=1).',
    );
  }
  if (
    workers > 1 &&
    needsSharedLimits(env) &&
    (env['REDIS_URL']?.trim() ?? '') === '' &&
    (env['PROFILER_REDIS_URL']?.trim() ?? '') === ''
  ) {
    throw new ConfigError(
      `WORKERS=${workers} needs REDIS_URL: login throttling and rate limits count in Redis, so that ${workers} workers do not each allow the limit. ` +
        'Set REDIS_URL (or PROFILER_REDIS_URL), or turn both off (LOGIN_THROTTLING=off, RATE_LIMIT=off).',
    );
  }
  return workers;
}

/** Whether login throttling or the per-client limiter is on (docs/security.md). */
function needsSharedLimits(env: NodeJS.ProcessEnv): boolean {
  const off = (name: string, byDefault: boolean) => {
    const value = env[name]?.trim() ?? '';
    return value === '' ? byDefault : value === 'off' || value === '0';
  };
  return !off('LOGIN_THROTTLING', false) || !off('RATE_LIMIT', true);
}
