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

/**
 * `If-Match` against the current tag, by strong comparison (RFC 9110 §13.1.1): a weak tag on
 * either side never matches. `*` matches any current representation.
 */
export function ifMatchMatches(header: string, etag: string): boolean {
  for (const candidate of header.match(TAG_IN_LIST) ?? []) {
    if (candidate === '*' || strongMatch(candidate, etag)) return true;
  }
  return false;
}

/** Strong comparison (RFC 9110 §8.8.3.2): both tags strong and equal character for character. */
export function strongMatch(a: string, b: string): boolean {
  return a === b && !a.startsWith('W/');
}

function stripWeak(tag: string): string {
  return tag.startsWith('W/') ? tag.slice(2) : tag;
}
