import { randomBytes } from 'node:crypto';
import type { Logger } from '@switchboard/http-kernel';
import { ConfigError } from '../config.js';

const DEFAULT_REFRESH_TTL_SECONDS = 14 * 24 * 3600;

/** Env `REFRESH_TTL`: seconds a login with "remember" lasts. Default 14 days. */
export function refreshTtlSeconds(env: NodeJS.ProcessEnv): number {
  const text = env['REFRESH_TTL'];
  if (text === undefined || text === '') return DEFAULT_REFRESH_TTL_SECONDS;
  const seconds = Number(text);
  if (!Number.isInteger(seconds) || seconds <= 0) throw new ConfigError(`REFRESH_TTL must be a whole number of seconds, got "${text}".`);
  return seconds;
}

/**
 * Env `REFRESH_COOKIE_KEYS`: the keys that seal refresh cookies, 64 hex characters each, comma
 * separated, the newest first (older ones still open the cookies they sealed). Unset: a key made
 * at start, so a restart ends every "remember me" login (fine in development; set the variable
 * in production, the same for every worker of a cluster).
 */
export function refreshCookieKeys(env: NodeJS.ProcessEnv, logger: Logger): string[] {
  const text = env['REFRESH_COOKIE_KEYS'];
  if (text === undefined || text === '') {
    logger.debug({}, 'REFRESH_COOKIE_KEYS is not set: refresh cookies are sealed with a key made at start.');
    return [randomBytes(32).toString('hex')];
  }
  const keys = text.split(',').map((key) => key.trim());
  for (const [index, key] of keys.entries()) {
    if (!/^[0-9a-f]{64}$/i.test(key)) throw new ConfigError(`REFRESH_COOKIE_KEYS: key ${index + 1} is not 64 hex characters.`);
  }
  return keys;
}
