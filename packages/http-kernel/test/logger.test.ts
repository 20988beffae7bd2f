import { describe, expect, it } from 'vitest';
import { MemoryLogger, nullLogger, RecordingLogger, type LogRecord } from '../src/index.js';

describe('Logger level checks', () => {
  it('answers isLevelEnabled from the minimum level, in pino level names, for children too', () => {
    const records: LogRecord[] = [];
    const logger = new RecordingLogger((record) => records.push(record), {}, 'WARNING');
    const child = logger.child({ channel: 'request' });
    for (const checked of [logger, child]) {
      expect(['debug', 'info', 'warn', 'error', 'fatal'].map((level) => checked.isLevelEnabled(level))).toEqual([
        false,
        false,
        true,
        true,
        true,
      ]);
    }
    child.info({}, 'dropped');
    child.warn({}, 'kept');
    expect(records.map((record) => record.message)).toEqual(['kept']);
  });

  it('keeps everything in a MemoryLogger and nothing in nullLogger', () => {
    expect(new MemoryLogger().isLevelEnabled('debug')).toBe(true);
    expect(nullLogger.isLevelEnabled?.('fatal')).toBe(false);
  });
});
