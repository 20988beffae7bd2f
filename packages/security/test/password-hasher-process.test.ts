import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryLogger, ServiceUnavailableHttpError } from '@switchboard/http-kernel';
import { DEFAULT_CHILD_ENVIRONMENT, PasswordHasherProcess, scryptPasswordHasher } from '../src/index.js';

/**
 * The password checker process: a real child process (no mock), checking real scrypt hashes.
 * A cheap cost keeps the checks short; the default cost is the host's business.
 */
const cheap = { N: 2 ** 10, r: 8, p: 1 };
const stored = await scryptPasswordHasher.hash('correct horse', cheap);
const started: PasswordHasherProcess[] = [];

function hasher(logger = new MemoryLogger()): PasswordHasherProcess {
  const created = new PasswordHasherProcess({ logger });
  started.push(created);
  return created;
}

afterEach(async () => {
  for (const each of started.splice(0)) await each.close();
});

/** The nice value of a process's main thread (field 19 of /proc/<pid>/stat, after the name in parentheses). */
function niceOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

describe('PasswordHasherProcess', () => {
  it('checks passwords in a child process like scryptPasswordHasher.verify', async () => {
    const checker = hasher();
    expect(await checker.verify('correct horse', stored)).toBe(true);
    expect(await checker.verify('correct horsE', stored)).toBe(false);
    expect(await checker.verify('cafe\u0301', await scryptPasswordHasher.hash('caf\u00e9', cheap))).toBe(true);
    expect(await checker.verify('correct horse', 'plain-text-password')).toBe(false);
    expect(checker.pid).not.toBe(process.pid);
    expect(checker.stats).toEqual({ pending: 0, started: 1 });
  });

  it.skipIf(process.platform !== 'linux')("gives the child none of the host's secrets: only the allow-listed variables", async () => {
    const secrets = { JWT_PASSPHRASE: 'passphrase-of-the-host', DATABASE_URL: 'postgresql://app:db-password@db/app', API_KEY: 'k-123' };
    const saved = Object.fromEntries(Object.keys(secrets).map((name) => [name, process.env[name]]));
    Object.assign(process.env, secrets);
    try {
      const checker = hasher();
      await checker.start();
      // The environment the kernel gave the real child: NUL-separated NAME=value entries.
      const environ = readFileSync(`/proc/${checker.pid!}/environ`, 'utf8');
      const names = environ
        .split('\0')
        .filter((entry) => entry !== '')
        .map((entry) => entry.slice(0, entry.indexOf('=')));
      for (const value of Object.values(secrets)) expect(environ).not.toContain(value);
      // Node adds NODE_CHANNEL_* to a forked child: where its IPC channel is.
      for (const name of names.filter((each) => !each.startsWith('NODE_CHANNEL_'))) expect(DEFAULT_CHILD_ENVIRONMENT).toContain(name);
      expect(await checker.verify('correct horse', stored)).toBe(true);
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it.skipIf(process.platform !== 'linux')('runs the child at the lowest CPU priority (nice 19)', async () => {
    const checker = hasher();
    await checker.start();
    expect(niceOf(checker.pid!)).toBe(19);
    expect(niceOf(process.pid)).not.toBe(19);
  });

  it('rejects the checks of a child that dies with a 503, logs it without secrets, and starts a new child for the next check', async () => {
    const logger = new MemoryLogger();
    const checker = hasher(logger);
    await checker.start();
    const first = checker.pid!;
    // Stopped, the child cannot answer: both checks are certainly still pending when it is killed.
    process.kill(first, 'SIGSTOP');
    const checks = [checker.verify('correct horse', stored), checker.verify('wrong', stored)];
    await expect.poll(() => checker.stats.pending).toBe(2);
    process.kill(first, 'SIGKILL');

    for (const check of checks) {
      const error = await check.then(
        () => null,
        (reason: unknown) => reason,
      );
      expect(error).toBeInstanceOf(ServiceUnavailableHttpError);
      expect((error as ServiceUnavailableHttpError).headers).toEqual({ 'retry-after': '1' });
    }
    expect(await checker.verify('correct horse', stored)).toBe(true);
    expect(checker.pid).not.toBe(first);
    expect(checker.stats).toEqual({ pending: 0, started: 2 });

    const warnings = logger.records.filter((record) => record.level === 'WARNING');
    expect(warnings.map((record) => record.message)).toEqual([
      `Password checker process ${first} exited (code null, signal SIGKILL); the next check starts a new one.`,
    ]);
    expect(warnings[0]!.context).toMatchObject({ pid: first, checks_failed: 2 });
    const logged = JSON.stringify(logger.records);
    expect(logged).not.toContain('correct horse');
    expect(logged).not.toContain(stored.split('$')[5]);
  });

  it('after close, pending and later checks are refused with a 503 and the child is gone', async () => {
    const checker = hasher();
    await checker.start();
    const pid = checker.pid!;
    process.kill(pid, 'SIGSTOP');
    const pending = checker.verify('correct horse', stored);
    await expect.poll(() => checker.stats.pending).toBe(1);
    await checker.close();
    await expect(pending).rejects.toThrow('The password checker has been stopped.');
    await expect(checker.verify('correct horse', stored)).rejects.toBeInstanceOf(ServiceUnavailableHttpError);
    expect(() => process.kill(pid, 0)).toThrow();
  });
  it("the child outlives SIGINT and SIGTERM (a terminal's Ctrl-C reaches the whole process group): the host decides when it stops", async () => {
    const logger = new MemoryLogger();
    const checker = hasher(logger);
    await checker.start();
    const pid = checker.pid!;
    process.kill(pid, 'SIGINT');
    process.kill(pid, 'SIGTERM');
    // Without its handlers the kernel would end the child before it ran again: this check would get a 503.
    expect(await checker.verify('correct horse', stored)).toBe(true);
    expect(checker.pid).toBe(pid);
    expect(checker.stats.started).toBe(1);
  });

  it('a host that exits while its child is still starting leaves no error behind (the child exits quietly)', async () => {
    // What a host refused at startup does (a port or a database in use): exit right after
    // creating the checker. The child inherits stderr, so its output is read until it too is gone.
    const host = spawn(
      process.execPath,
      [
        '--conditions=@switchboard/source',
        '--import',
        'tsx',
        '--input-type=module',
        '--eval',
        `import { PasswordHasherProcess } from '@switchboard/security';
         void new PasswordHasherProcess().start();
         process.stderr.write('refused\\n');
         process.exit(78);`,
      ],
      { cwd: import.meta.dirname, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    host.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    // 'close': every process holding the pipe (host and child) has exited.
    const [code] = (await once(host, 'close')) as [number];
    expect(code).toBe(78);
    expect(stderr).toBe('refused\n');
  }, 30_000);
});
