import { createHash } from 'node:crypto';

const QUOTED_TAG = /^(?:W\/)?"[\x21\x23-\x7e\x80-\xff]*"$/;
const BARE_TAG = /^[\x21\x23-\x7e]+$/;
const TAG_IN_LIST = /(?:W\/)?"[^"]*"|\*/g;

/** A header-ready entity tag: quoted tags kept, bare tokens quoted, anything else hashed. */
export function entityTag(value: string): string {
  if (QUOTED_TAG.test(value)) return value;
  if (BARE_TAG.test(value)) return `"${value}"`;
  return `"${createHash('sha256').update(value).digest('base64url')}"`;
}

/**
 * `If-None-Match` against the current tag, by weak comparison (RFC 9110 §8.8.3.2): `W/"1"`
 * matches `"1"`. `*` matches any current representation.
 */
export function ifNoneMatchMatches(header: string, etag: string): boolean {
  const opaque = stripWeak(etag);
  for (const candidate of header.match(TAG_IN_LIST) ?? []) {
    if (candidate === '*' || stripWeak(candidate) === opaque) return true;
  }
  return false;
}

function stripWeak(tag: string): string {
  return tag.startsWith('W/') ? tag.slice(2) : tag;
}
