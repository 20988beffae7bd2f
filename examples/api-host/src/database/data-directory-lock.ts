import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../config.js';

/**
 * Claims `directory` for this process with a `host.pid` file beside the data, so that a second
 * host started on the same folder stops with a clear message instead of corrupting the
 * database. A file left by a process that no longer runs is taken over. Returns the release.
 */
export function lockDataDirectory(directory: string): () => void {
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  const lockFile = join(directory, 'host.pid');
  for (;;) {
    try {
      writeFileSync(lockFile, String(process.pid), { flag: 'wx', mode: 0o600 });
      return () => rmSync(lockFile, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = Number(readFileSync(lockFile, 'utf8').trim());
    if (isRunning(owner)) {
      throw new ConfigError(
        `The embedded database in ${directory} is in use by process ${owner}; stop it, or set PGLITE_DATA_DIR to another folder.`,
      );
    }
    rmSync(lockFile, { force: true });
  }
}

function isRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
