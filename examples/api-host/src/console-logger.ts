import { RecordingLogger, redactCredentials, type LogLevel, type LogRecord } from '@switchboard/http-kernel';

/**
 * The host's log output: one line per record on stderr, `[time] channel.LEVEL: message`, with the
 * error class when the record carries one. Context values are not printed (they may hold request
 * data); the profiler shows them in debug mode. Messages quote request data (the URL and referer of
 * a 404), so bearer-shaped credentials in them are redacted.
 */
export function createConsoleLogger(
  minLevel: LogLevel = 'INFO',
  write: (line: string) => void = (line) => process.stderr.write(line),
): RecordingLogger {
  return new RecordingLogger((record) => write(formatRecord(record)), {}, minLevel);
}

export function formatRecord(record: LogRecord): string {
  const exception = record.context['exception'];
  const suffix = exception instanceof Error ? ` [${exception.name}]` : '';
  return `[${new Date(record.time).toISOString()}] ${record.channel}.${record.level}: ${redactCredentials(record.message)}${suffix}\n`;
}
