import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { removeAbandonedUploads } from '../src/index.js';

/**
 * The upload folders a process left when it died are deleted; those of a process that still runs,
 * of this process, and anything not made by an upload are left alone. Owners are real processes.
 */
const scratch = mkdtempSync(join(tmpdir(), 'payload-abandoned-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function folder(name: string): string {
  const path = join(scratch, name);
  mkdirSync(path, { mode: 0o700 });
  writeFileSync(join(path, '1.part'), 'part of an upload', { mode: 0o600 });
  return name;
}

it('deletes the folders of processes that no longer run, and only those', async () => {
  const ended = spawn(process.execPath, ['-e', '']);
  await once(ended, 'exit');
  const running = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
  try {
    const gone = folder(`switchboard-upload-${ended.pid}-a1B2c3`);
    const kept = [
      folder(`switchboard-upload-${running.pid}-d4E5f6`),
      folder(`switchboard-upload-${process.pid}-g7H8i9`),
      // Named without an owner: nobody can say whether it is still in use.
      folder('switchboard-upload-j0K1l2'),
      folder(`other-${ended.pid}-m3N4o5`),
    ];
    // A link named like a dead process's folder is not an upload folder, nor what it leads to.
    const target = folder('link-target');
    symlinkSync(join(scratch, target), join(scratch, `switchboard-upload-${ended.pid}-p6Q7r8`));

    expect(await removeAbandonedUploads(scratch)).toBe(1);
    expect(existsSync(join(scratch, gone))).toBe(false);
    expect(readdirSync(scratch).sort()).toEqual([...kept, target, `switchboard-upload-${ended.pid}-p6Q7r8`].sort());
    expect(readdirSync(join(scratch, target))).toEqual(['1.part']);
  } finally {
    running.kill('SIGKILL');
    await once(running, 'exit');
  }
});
