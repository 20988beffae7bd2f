import { pino, type DestinationStream } from 'pino';
import type { Logger, LogLevel } from '@switchboard/http-kernel';
import { ConfigError } from '../config.js';
import { createConsoleLogger } from '../console-logger.js';
import { logSafeData } from './log-safe-data.js';

const PINO_LEVELS: Readonly<Record<LogLevel, string>> = {
  DEBUG: 'debug',
  INFO: 'info',
  WARNING: 'warn',
  ERROR: 'error',
  CRITICAL: 'fatal',
};

/**
 * The host's logger, chosen by env `LOG_FORMAT`: `human` (default) writes the console lines of
 * `createConsoleLogger`; `json` writes one JSON object per record on stderr through pino, with
 * every binding and context member (`requestId`, `route`, the access line's fields) and errors
 * serialized with their stack. Both formats show text the same way (`logSafeText`): in JSON that
 * is the message, every binding and field (the access line's `path`), and an error's message,
 * stack and fields. Tests pass their own `jsonDestination`.
 */
export function createHostLogger(env: NodeJS.ProcessEnv, minLevel: LogLevel, jsonDestination?: DestinationStream): Logger {
  const format = env['LOG_FORMAT']?.trim() || 'human';
  if (format === 'human') return createConsoleLogger(minLevel);
  if (format !== 'json') throw new ConfigError(`LOG_FORMAT must be "human" or "json", got "${format}".`);
  return pino(
    {
      level: PINO_LEVELS[minLevel],
      base: { pid: process.pid },
      formatters: { bindings: logSafeData },
      hooks: {
        logMethod(args, method) {
          return method.apply(this, logSafeData(args));
        },
      },
    },
    jsonDestination ?? pino.destination({ dest: 2, sync: true }),
  );
}
