import { logArguments, type Logger, type LogLevel } from '@switchboard/http-kernel';
import type { ProfilerRecorder } from './profiler-recorder.js';

/**
 * Wraps the app's logger: every call goes to it unchanged, and a copy of the record (level,
 * channel, message, context) is filed under the request being handled, for the logger panel.
 * Give this logger to the packages whose logs the profiler should show.
 */
export class ProfilingLogger implements Logger {
  constructor(
    private readonly inner: Logger,
    private readonly recorder: ProfilerRecorder,
    private readonly bindings: Readonly<Record<string, unknown>> = {},
  ) {
    recorder.fileLogs();
  }

  debug(contextOrMessage: Record<string, unknown> | string, text?: string): void {
    const [context, message] = logArguments(contextOrMessage, text);
    this.inner.debug(context, message);
    this.#record('DEBUG', context, message);
  }

  info(contextOrMessage: Record<string, unknown> | string, text?: string): void {
    const [context, message] = logArguments(contextOrMessage, text);
    this.inner.info(context, message);
    this.#record('INFO', context, message);
  }

  warn(contextOrMessage: Record<string, unknown> | string, text?: string): void {
    const [context, message] = logArguments(contextOrMessage, text);
    this.inner.warn(context, message);
    this.#record('WARNING', context, message);
  }

  error(contextOrMessage: Record<string, unknown> | string, text?: string): void {
    const [context, message] = logArguments(contextOrMessage, text);
    this.inner.error(context, message);
    this.#record('ERROR', context, message);
  }

  fatal(contextOrMessage: Record<string, unknown> | string, text?: string): void {
    const [context, message] = logArguments(contextOrMessage, text);
    this.inner.fatal(context, message);
    this.#record('CRITICAL', context, message);
  }

  critical(contextOrMessage: Record<string, unknown> | string, text?: string): void {
    const [context, message] = logArguments(contextOrMessage, text);
    if (this.inner.critical) this.inner.critical(context, message);
    else this.inner.fatal(context, message);
    this.#record('CRITICAL', context, message);
  }

  child(bindings: Record<string, unknown>): ProfilingLogger {
    return new ProfilingLogger(this.inner.child(bindings), this.recorder, { ...this.bindings, ...bindings });
  }

  #record(level: LogLevel, context: Record<string, unknown>, message: string): void {
    const channel = typeof this.bindings['channel'] === 'string' ? this.bindings['channel'] : 'app';
    this.recorder.recordLog({ time: Date.now(), level, channel, message, context });
  }
}
