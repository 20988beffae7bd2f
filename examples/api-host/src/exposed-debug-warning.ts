import { isIP } from 'node:net';
import type { Logger } from '@switchboard/http-kernel';
import type { AppConfig } from './config.js';

/**
 * Debug mode serves the profiler (whole requests, headers included) and detailed error pages to
 * whoever reaches the port: listening on anything but a loopback address with it on deserves a
 * WARNING at startup (one per host, not per worker).
 */
export function warnIfDebugIsExposed(config: Pick<AppConfig, 'debug' | 'host'>, logger: Logger): void {
  if (!config.debug || isLoopback(config.host)) return;
  logger.warn(
    { host: config.host },
    `Debug mode is on and APP_HOST=${config.host} is not a loopback address: the profiler and detailed error pages are ` +
      'open to every machine that reaches this port. Set APP_DEBUG=0 for anything but local development.',
  );
}

function isLoopback(host: string): boolean {
  const address = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (address === 'localhost') return true;
  if (isIP(address) === 4) return address.startsWith('127.');
  return address === '::1' || /^::ffff:127\./i.test(address);
}
