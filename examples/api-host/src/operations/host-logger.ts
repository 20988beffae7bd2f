import { pino, type DestinationStream } from 'pino';
import type { Logger, LogLevel } from '@switchboard/http-kernel';
import { Redactor } from '@switchboard/profiler';
import { ConfigError } from '../config.js';
import { createConsoleLogger } from '../console-logger.js';

const PINO_LEVELS: Readonly<Record<LogLevel, string>> = {
  DEBUG: 'debug',
  INFO: 'info',
  WARNING: 'warn',
  ERROR: 'error',
  CRITICAL: 'fatal',
};

/** The profiler's default redaction rules, applied to every message as the human format does. */
const messageRedactor = new Redactor();

/**
 * The host's logger, chosen by env `LOG_FORMAT`: `human` (default) writes the console lines of
 * `createConsoleLogger`; `json` writes one JSON object per record on stderr through pino, with
 * every binding and context member (`requestId`, `route`, the access line's fields) and errors
 * serialized with their stack. Messages are redacted the same way in both formats. Tests pass
 * their own `jsonDestination`.
 */
export function createHostLogger(env: NodeJS.ProcessEnv, minLevel: LogLevel, jsonDestination?: DestinationStream): Logger {
  const format = env['LOG_FORMAT']?.trim() || 'human';
  if (format === 'human') return createConsoleLogger(minLevel);
  if (format !== 'json') throw new ConfigError(`LOG_FORMAT must be "human" or "json", got "${format}".`);
  return pino(
    {
      level: PINO_LEVELS[minLevel],
      base: { pid: process.pid },
      serializers: { exception: pino.stdSerializers.err },
      hooks: {
        logMethod(args, method) {
          const [context, message] = args as [unknown, unknown];
          if (typeof message === 'string') return method.apply(this, [context, messageRedactor.text(message)] as never);
          return method.apply(this, args);
        },
      },
    },
    jsonDestination ?? pino.destination({ dest: 2, sync: true }),
  );
}
