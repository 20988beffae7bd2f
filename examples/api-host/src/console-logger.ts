import cluster from 'node:cluster';
import { RecordingLogger, type LogLevel, type LogRecord } from '@switchboard/http-kernel';
import { logSafeText } from '@switchboard/http-kernel/redaction';

/**
 * The host's log output: one line per record on stderr, `[time] channel.LEVEL: message`, with the
 * error class when the record carries one. Context values are not printed (they may hold request
 * data); the profiler shows them in debug mode. Messages quote request data (the URL and referer of
 * a 404), so they are written through `logSafeText`, as in the JSON format: bearer-shaped
 * credentials, values of parameters named like secrets (`password=…`, `api_key=…`, `code=…`) and
 * the userinfo of URLs hidden, control characters escaped. In a cluster worker (`WORKERS` above 1)
 * each line names its worker, `[time] [worker 2] channel.LEVEL: message`, since all workers write
 * to the same stderr.
 */
export function createConsoleLogger(
  minLevel: LogLevel = 'INFO',
  write: (line: string) => void = (line) => process.stderr.write(line),
  origin: string | null = cluster.worker === undefined ? null : `worker ${cluster.worker.id}`,
): RecordingLogger {
  return new RecordingLogger((record) => write(formatRecord(record, origin)), {}, minLevel);
}

export function formatRecord(record: LogRecord, origin: string | null = null): string {
  const error = record.context['err'];
  const suffix = error instanceof Error ? ` [${logSafeText(error.name)}]` : '';
  const from = origin === null ? '' : ` [${origin}]`;
  return `[${new Date(record.time).toISOString()}]${from} ${record.channel}.${record.level}: ${logSafeText(record.message)}${suffix}\n`;
}
