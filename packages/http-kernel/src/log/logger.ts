import { logSafeText } from './log-safe-text.js';

/**
 * The logger the packages write to: pino's calling convention (`logger.error(context, message)`)
 * and `child(bindings)`, so a pino instance plugs in as is. Channels are child loggers bound
 * with `{ channel: 'request' }`.
 */
export interface Logger {
  debug(context: Record<string, unknown>, message: string): void;
  info(context: Record<string, unknown>, message: string): void;
  warn(context: Record<string, unknown>, message: string): void;
  error(context: Record<string, unknown>, message: string): void;
  /** pino's highest level; used for CRITICAL when the logger has no `critical`. */
  fatal(context: Record<string, unknown>, message: string): void;
  critical?(context: Record<string, unknown>, message: string): void;
  child(bindings: Record<string, unknown>): Logger;
  /**
   * pino's check (`'debug'`, `'info'`, `'warn'`, `'error'`, `'fatal'`): lets a hot path skip
   * building a record nobody keeps. Absent means every level is kept.
   */
  isLevelEnabled?(level: string): boolean;
}

export type LogLevel = 'DEBUG' | 'INFO' | 'WARNING' | 'ERROR' | 'CRITICAL';

const PINO_NAMES: Readonly<Record<LogLevel, string>> = {
  DEBUG: 'debug',
  INFO: 'info',
  WARNING: 'warn',
  ERROR: 'error',
  CRITICAL: 'fatal',
};

/** Whether `logger` keeps records at `level`: lets a hot path skip building one nobody keeps. */
export function isLogged(logger: Logger, level: LogLevel): boolean {
  return logger.isLevelEnabled?.(PINO_NAMES[level]) ?? true;
}

/** Writes at `level`, mapping CRITICAL to `critical()` or else pino's `fatal()`. */
export function logAt(logger: Logger, level: LogLevel, context: Record<string, unknown>, message: string): void {
  switch (level) {
    case 'DEBUG':
      return logger.debug(context, message);
    case 'INFO':
      return logger.info(context, message);
    case 'WARNING':
      return logger.warn(context, message);
    case 'ERROR':
      return logger.error(context, message);
    case 'CRITICAL':
      return logger.critical ? logger.critical(context, message) : logger.fatal(context, message);
  }
}

export interface LogRecord {
  readonly time: number;
  readonly level: LogLevel;
  readonly channel: string;
  readonly message: string;
  readonly context: Record<string, unknown>;
}

type RecordSink = (record: LogRecord) => void;

/**
 * A logger that hands each record, with its level name and channel, to a sink: an array in tests,
 * the profiler's logger panel, or a line writer.
 */
export class RecordingLogger implements Logger {
  constructor(
    private readonly sink: RecordSink,
    protected readonly bindings: Readonly<Record<string, unknown>> = {},
    private readonly minLevel: LogLevel = 'DEBUG',
  ) {}

  debug(context: Record<string, unknown>, message: string): void {
    this.#write('DEBUG', context, message);
  }
  info(context: Record<string, unknown>, message: string): void {
    this.#write('INFO', context, message);
  }
  warn(context: Record<string, unknown>, message: string): void {
    this.#write('WARNING', context, message);
  }
  error(context: Record<string, unknown>, message: string): void {
    this.#write('ERROR', context, message);
  }
  critical(context: Record<string, unknown>, message: string): void {
    this.#write('CRITICAL', context, message);
  }
  fatal(context: Record<string, unknown>, message: string): void {
    this.#write('CRITICAL', context, message);
  }

  child(bindings: Record<string, unknown>): RecordingLogger {
    return new RecordingLogger(this.sink, { ...this.bindings, ...bindings }, this.minLevel);
  }

  isLevelEnabled(level: string): boolean {
    const named = LEVELS_BY_PINO_NAME.get(level);
    return named === undefined || LEVEL_RANK[named] >= LEVEL_RANK[this.minLevel];
  }

  #write(level: LogLevel, context: Record<string, unknown>, message: string): void {
    if (LEVEL_RANK[level] < LEVEL_RANK[this.minLevel]) return;
    const channel = typeof this.bindings['channel'] === 'string' ? this.bindings['channel'] : 'app';
    this.sink({ time: Date.now(), level, channel, message, context: { ...this.bindings, ...context } });
  }
}

export const LEVEL_RANK: Readonly<Record<LogLevel, number>> = { DEBUG: 0, INFO: 1, WARNING: 2, ERROR: 3, CRITICAL: 4 };

const LEVELS_BY_PINO_NAME = new Map(Object.entries(PINO_NAMES).map(([level, name]) => [name, level as LogLevel]));

/** Keeps records in memory: `logger.records`. */
export class MemoryLogger extends RecordingLogger {
  readonly records: LogRecord[];

  constructor(records: LogRecord[] = [], bindings: Readonly<Record<string, unknown>> = {}) {
    super((record) => records.push(record), bindings);
    this.records = records;
  }

  override child(bindings: Record<string, unknown>): MemoryLogger {
    return new MemoryLogger(this.records, { ...this.bindings, ...bindings });
  }
}

/** Discards everything. */
export const nullLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  fatal() {},
  child() {
    return nullLogger;
  },
  isLevelEnabled() {
    return false;
  },
};

/**
 * A logger writing records at `minLevel` and above to stderr, each a line followed by the error's
 * stack when the record carries one, both through `logSafeText`.
 */
export function createStderrLogger(minLevel: LogLevel): Logger {
  return new RecordingLogger((record) => process.stderr.write(formatStderrRecord(record)), {}, minLevel);
}

/**
 * What the kernel, the error listener and the node adapter write to when given no logger: CRITICAL
 * records only (a server error, or a failure while answering one). A 5xx is never lost silently;
 * 4xx answers stay quiet. Pass `nullLogger` to silence it.
 */
export const stderrLogger: Logger = createStderrLogger('CRITICAL');

/** Messages and stacks may quote request data: secrets hidden and control characters escaped, line by line. */
function formatStderrRecord(record: LogRecord): string {
  const exception = record.context['exception'];
  const stack = exception instanceof Error && typeof exception.stack === 'string' ? exception.stack.split('\n').map(logSafeText) : [];
  return `${[`[${new Date(record.time).toISOString()}] ${record.channel}.${record.level}: ${logSafeText(record.message)}`, ...stack].join('\n')}\n`;
}
