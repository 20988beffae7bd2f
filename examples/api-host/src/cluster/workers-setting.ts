import { ConfigError } from '../config.js';

/** More workers than this is a typo, not a deployment (each worker holds its own pools and caches). */
export const MAX_WORKERS = 64;

/**
 * `WORKERS` (default 1): how many processes serve the port. Above 1 the host runs as a `node:cluster`
 * primary with that many workers, which needs a database every worker reaches (`DATABASE_URL`): the
 * embedded PGlite lives inside one process. In debug mode it also refuses `PROFILER_DIR`: the file
 * storage indexes, evicts and deletes as if it were alone in its directory.
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
  return workers;
}
