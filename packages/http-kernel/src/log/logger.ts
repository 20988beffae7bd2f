import { logSafeText } from './log-safe-text.js';

/**
 * One level's method, in pino's two call forms: `logger.info('message')` and
 * `logger.info({ ...context }, 'message')`. An error goes under `err`, where pino's own serializer
 * writes its type, message and stack.
 */
export interface LogMethod {
  (message: string): void;
  (context: Record<string, unknown>, message?: string): void;
}

/** Either call form of a `LogMethod` as `(context, message)`: a message alone has an empty context. */
export function logArguments(contextOrMessage: Record<string, unknown> | string, message = ''): [Record<string, unknown>, string] {
  return typeof contextOrMessage === 'string' ? [{}, contextOrMessage] : [contextOrMessage, message];
}

/**
 * The logger the packages write to: pino's calling convention and `child(bindings)`, so a pino
 * instance plugs in as is. Channels are child loggers bound with `{ channel: 'request' }`.
 */
export interface Logger {
  debug: LogMethod;
  info: LogMethod;
  warn: LogMethod;
  error: LogMethod;
  /** pino's highest level; used for CRITICAL when the logger has no `critical`. */
  fatal: LogMethod;
  critical?: LogMethod;
  child(bindings: Record<string, unknown>): Logger;
  /**
   * pino's check (`'debug'`, `'info'`, `'warn'`, `'error'`, `'fatal'`): lets a hot path skip
   * building a record nobody keeps. Absent means every level is kept.
   */
  isLevelEnabled?(level: string): boolean;
}

/** The five levels, as records name them. */
export type LogLevel = 'DEBUG' | 'INFO' | 'WARNING' | 'ERROR' | 'CRITICAL';

/** A level as an option may spell it: upper case, or pino's and PSR-3's lower-case names. */
export type LogLevelName = LogLevel | 'debug' | 'info' | 'warn' | 'warning' | 'error' | 'fatal' | 'critical';

const LEVELS_BY_NAME: Readonly<Record<LogLevelName, LogLevel>> = {
  DEBUG: 'DEBUG',
  INFO: 'INFO',
  WARNING: 'WARNING',
  ERROR: 'ERROR',
  CRITICAL: 'CRITICAL',
  debug: 'DEBUG',
  info: 'INFO',
  warn: 'WARNING',
  warning: 'WARNING',
  error: 'ERROR',
  fatal: 'CRITICAL',
  critical: 'CRITICAL',
};

/** The level `name` spells (`'warn'` → `WARNING`); throws on a name that is none. */
export function toLogLevel(name: LogLevelName): LogLevel {
  const level = Object.hasOwn(LEVELS_BY_NAME, name) ? LEVELS_BY_NAME[name] : undefined;
  if (level === undefined)
    throw new TypeError(`Unknown log level "${String(name)}": use one of ${Object.keys(LEVELS_BY_NAME).join(', ')}.`);
  return level;
}

const PINO_NAMES: Readonly<Record<LogLevel, string>> = {
  DEBUG: 'debug',
  INFO: 'info',
  WARNING: 'warn',
  ERROR: 'error',
  CRITICAL: 'fatal',
};

/** Whether `logger` keeps records at `level`: lets a hot path skip building one nobody keeps. */
export function isLogged(logger: Logger, level: LogLevelName): boolean {
  return logger.isLevelEnabled?.(PINO_NAMES[toLogLevel(level)]) ?? true;
}

/** Writes at `level`, mapping CRITICAL to `critical()` or else pino's `fatal()`. */
export function logAt(logger: Logger, level: LogLevelName, context: Record<string, unknown>, message: string): void {
  switch (toLogLevel(level)) {
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
    minLevel: LogLevelName = 'DEBUG',
  ) {
    this.minLevel = toLogLevel(minLevel);
  }

  private readonly minLevel: LogLevel;

  debug(contextOrMessage: Record<string, unknown> | string, message?: string): void {
    this.#write('DEBUG', contextOrMessage, message);
  }
  info(contextOrMessage: Record<string, unknown> | string, message?: string): void {
    this.#write('INFO', contextOrMessage, message);
  }
  warn(contextOrMessage: Record<string, unknown> | string, message?: string): void {
    this.#write('WARNING', contextOrMessage, message);
  }
  error(contextOrMessage: Record<string, unknown> | string, message?: string): void {
    this.#write('ERROR', contextOrMessage, message);
  }
  critical(contextOrMessage: Record<string, unknown> | string, message?: string): void {
    this.#write('CRITICAL', contextOrMessage, message);
  }
  fatal(contextOrMessage: Record<string, unknown> | string, message?: string): void {
    this.#write('CRITICAL', contextOrMessage, message);
  }

  child(bindings: Record<string, unknown>): RecordingLogger {
    return new RecordingLogger(this.sink, { ...this.bindings, ...bindings }, this.minLevel);
  }

  isLevelEnabled(level: string): boolean {
    const named = LEVELS_BY_PINO_NAME.get(level);
    return named === undefined || LEVEL_RANK[named] >= LEVEL_RANK[this.minLevel];
  }

  #write(level: LogLevel, contextOrMessage: Record<string, unknown> | string, text?: string): void {
    if (LEVEL_RANK[level] < LEVEL_RANK[this.minLevel]) return;
    const [context, message] = logArguments(contextOrMessage, text);
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
export function createStderrLogger(minLevel: LogLevelName): Logger {
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
  const error = record.context['err'];
  const stack = error instanceof Error && typeof error.stack === 'string' ? error.stack.split('\n').map(logSafeText) : [];
  return `${[`[${new Date(record.time).toISOString()}] ${record.channel}.${record.level}: ${logSafeText(record.message)}`, ...stack].join('\n')}\n`;
}
