import { lstat, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What every upload folder's name starts with; the owning process's id follows. */
export const UPLOAD_FOLDER_PREFIX = 'switchboard-upload-';

/** `switchboard-upload-<pid>-<mkdtemp's six characters>`. */
const UPLOAD_FOLDER = new RegExp(`^${UPLOAD_FOLDER_PREFIX}(\\d+)-[A-Za-z0-9]{6}$`);

/** The prefix `mkdtemp` completes for this process's upload folders. */
export function uploadFolderPrefix(): string {
  return `${UPLOAD_FOLDER_PREFIX}${process.pid}-`;
}

/**
 * Deletes the upload folders in `directory` (default `os.tmpdir()`) that a process which no longer
 * runs left behind: a process that dies mid-request never removes its own. Only folders named with
 * a process id, belonging to this user, whose process is gone; a live process's folder (or one of
 * a process this user may not signal) is left alone. Call it at start; resolves with how many went.
 */
export async function removeAbandonedUploads(directory: string = tmpdir()): Promise<number> {
  let removed = 0;
  for (const name of await readdir(directory)) {
    const pid = Number(UPLOAD_FOLDER.exec(name)?.[1] ?? Number.NaN);
    if (!Number.isSafeInteger(pid) || isRunning(pid)) continue;
    const path = join(directory, name);
    const stat = await lstat(path).catch(() => null);
    if (stat === null || !stat.isDirectory() || stat.uid !== process.getuid?.()) continue;
    await rm(path, { recursive: true, force: true });
    removed++;
  }
  return removed;
}

function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  if (pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
