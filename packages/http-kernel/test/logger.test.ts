import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
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

describe('createStderrLogger', () => {
  it('writes messages and stacks with secrets hidden and control characters escaped, in a real process', async () => {
    // The built package in a process of its own: what it writes to its real stderr.
    const script = [
      "import { createStderrLogger } from '@switchboard/http-kernel';",
      "const error = new Error('from https://ada:pw-secret-2@ref.example/\\u202eexe');",
      "createStderrLogger('INFO').info({ err: error }, 'GET /x?password=pw-secret-1&page=2 \\u001b[31m\\u009b');",
    ].join('\n');
    const { stderr } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
    });
    const [line, stackHead] = stderr.split('\n');
    expect(line).toMatch(/ app\.INFO: GET \/x\?password=\[redacted\]&page=2 \\x1b\[31m\\x9b$/);
    expect(stackHead).toBe('Error: from https://[redacted]@ref.example/\\u202eexe');
    expect(stderr).not.toContain('-secret-');
  });
});
