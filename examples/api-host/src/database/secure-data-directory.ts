import { chmodSync, lstatSync, mkdirSync, readdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../config.js';

/**
 * Makes the embedded database's folder private to this user: the folder and every folder in it
 * 0700, every file without group or other permissions (PGlite writes files as the umask allows,
 * usually 0644). Run before PGlite opens the folder and again once it has created its files; files
 * PGlite creates later sit in a folder no one else can enter. A `directory` that is a symbolic link
 * (or lies under one) is resolved first: the real folder is the one made private, and its path is
 * returned for PGlite and the lock to use. A folder this user cannot change (owned by someone else)
 * stops the start with a message naming it.
 */
export function secureDataDirectory(directory: string): string {
  const real = realFolder(directory);
  try {
    withoutGroupOrOther(real);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'EACCES') throw error;
    throw new ConfigError(
      `The embedded database folder ${real} cannot be made private to this user (${code}): give it to the user running the host, or set PGLITE_DATA_DIR to another folder.`,
    );
  }
  return real;
}

/** The folder's real path, created when missing; a link to nothing stops the start. */
function realFolder(directory: string): string {
  try {
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    return realpathSync(directory);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'EEXIST' && code !== 'ENOTDIR') throw error;
    throw new ConfigError(
      `The embedded database folder ${directory} is not a folder, nor a link to one (${code}): set PGLITE_DATA_DIR to a folder.`,
    );
  }
}

function withoutGroupOrOther(path: string): void {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return;
  if ((stat.mode & 0o077) !== 0) chmodSync(path, stat.mode & 0o700);
  if (stat.isDirectory()) for (const entry of readdirSync(path)) withoutGroupOrOther(join(path, entry));
}
