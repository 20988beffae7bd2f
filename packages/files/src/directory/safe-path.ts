import { realpath, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

/** Percent-encoded `/`, `\` or NUL in the raw target: decoded, they would change the path's shape. */
const ENCODED_SEPARATOR_OR_NUL = /%(?:2f|5c|00)/i;

export interface DirectoryPolicy {
  /** The root, as `realpath` resolved it. */
  readonly root: string;
  readonly dotfiles: boolean;
  readonly index: string | false;
}

/**
 * The real path of the regular file a request names inside the root, or `null` when there is
 * none the policy lets out: `.` and `..` segments (however they were encoded), backslashes, NUL,
 * separators that arrived percent-encoded, dot-named segments unless allowed, a symbolic link
 * whose target lies outside the root (or is dot-named), anything but a regular file; a directory
 * gives its index file, or nothing. Callers answer every `null` alike, so a refusal says nothing
 * about what exists.
 */
export async function fileInside(policy: DirectoryPolicy, requested: string, rawPath: string): Promise<string | null> {
  if (ENCODED_SEPARATOR_OR_NUL.test(rawPath) || requested.includes('\\') || requested.includes('\0')) return null;
  const segments = requested.split('/').filter((segment) => segment !== '');
  if (!segments.every((segment) => allowedSegment(segment, policy.dotfiles))) return null;
  const found = await realInside(policy, join(policy.root, ...segments));
  if (found === null || found.isFile) return found?.path ?? null;
  if (policy.index === false) return null;
  const index = await realInside(policy, join(found.path, policy.index));
  return index?.isFile ? index.path : null;
}

function allowedSegment(segment: string, dotfiles: boolean): boolean {
  if (segment === '.' || segment === '..') return false;
  return dotfiles || !segment.startsWith('.');
}

/** Follows symbolic links and checks where they lead: still inside the root, and still allowed. */
async function realInside(policy: DirectoryPolicy, path: string): Promise<{ path: string; isFile: boolean } | null> {
  try {
    const real = await realpath(path);
    const inside = relative(policy.root, real);
    if (
      inside !== '' &&
      (inside.startsWith(`..${sep}`) || inside === '..' || !inside.split(sep).every((s) => allowedSegment(s, policy.dotfiles)))
    ) {
      return null;
    }
    const stats = await stat(real);
    if (!stats.isFile() && !stats.isDirectory()) return null;
    return { path: real, isFile: stats.isFile() };
  } catch {
    // Missing, unreadable or a loop of links: all answered as "not here".
    return null;
  }
}
