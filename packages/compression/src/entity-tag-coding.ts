import type { ContentCoding } from './content-coding.js';

/**
 * `"abc"` → `"abc-br"` (`W/` kept): a compressed body is another representation, and a cache must
 * never answer a `gzip` request with the `br` bytes because their tags matched. Anything that is
 * not a quoted tag is left as is.
 */
export function codedEntityTag(tag: string, coding: ContentCoding): string {
  return tag.endsWith('"') && tag.length >= 2 ? `${tag.slice(0, -1)}-${coding}"` : tag;
}

const CODED_SUFFIX = /-(?:br|zstd|gzip|deflate)"/g;

/**
 * The validators of `If-None-Match` / `If-Match` with the coding suffixes taken off, so that a
 * client revalidating its compressed copy matches the tag the app computes for the identity body.
 */
export function uncodedEntityTags(header: string): string {
  return header.replace(CODED_SUFFIX, '"');
}
