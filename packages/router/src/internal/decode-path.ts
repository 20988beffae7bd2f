import { MalformedPathError } from '../error/routing-error.js';

/**
 * Percent-decodes a path once, as Symfony's raw-URL decoding does (`+` stays `+`, `%2F`
 * becomes `/`). An empty path is `/`. Malformed escapes or non-UTF-8 bytes throw.
 */
export function decodePath(raw: string): string {
  if (raw === '') return '/';
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw) || '/';
  } catch (cause) {
    throw new MalformedPathError(raw, { cause });
  }
}

/** The path without trailing slashes (`/` stays `/`). */
export function trimTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 1 && path.charCodeAt(end - 1) === 47) end--;
  return end === path.length ? path : path.slice(0, end) || '/';
}
