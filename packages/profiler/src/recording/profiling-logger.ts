import type { Logger, LogLevel } from '@switchboard/http-kernel';
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

  debug(context: Record<string, unknown>, message: string): void {
    this.inner.debug(context, message);
    this.#record('DEBUG', context, message);
  }

  info(context: Record<string, unknown>, message: string): void {
    this.inner.info(context, message);
    this.#record('INFO', context, message);
  }

  warn(context: Record<string, unknown>, message: string): void {
    this.inner.warn(context, message);
    this.#record('WARNING', context, message);
  }

  error(context: Record<string, unknown>, message: string): void {
    this.inner.error(context, message);
    this.#record('ERROR', context, message);
  }

  fatal(context: Record<string, unknown>, message: string): void {
    this.inner.fatal(context, message);
    this.#record('CRITICAL', context, message);
  }

  critical(context: Record<string, unknown>, message: string): void {
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
