import { decodePath as decodeRequestPath } from '@switchboard/http-kernel/internal';
import { MalformedPathError } from '../error/routing-error.js';

/**
 * The path decoded as `Request.path` decodes it (as Symfony's raw-URL decoding does); malformed
 * percent-encoding or non-UTF-8 bytes throw a `MalformedPathError`.
 */
export function decodePath(raw: string): string {
  try {
    return decodeRequestPath(raw);
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
