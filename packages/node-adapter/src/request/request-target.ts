/** The path and query of a request target, both as received (still percent-encoded). */
export interface RequestTarget {
  readonly path: string;
  readonly query: string;
}

/** `http://` or `https://` then the authority, up to the path: what absolute-form starts with. */
const ABSOLUTE_FORM_PREFIX = /^https?:\/\/([^/?#]*)/i;

/**
 * Splits an HTTP request target into path and query.
 *
 * Why not `new URL(target, base)`: it reads `//evil.example/x` as a network-path reference and
 * takes `evil.example` as the host, and it normalises dot-segments and percent-encoding that the
 * router must see as sent. Here origin-form (`/a?b`) is split as is; a target starting with `//`
 * stays a path; absolute-form (`http://h/a?b`) contributes only its path and query (the host
 * comes from the `Host` header; docs/decisions.md says why); `*` (OPTIONS) is kept. Anything else
 * (another scheme, an empty authority, no path) is `null`, answered with 400 by the caller.
 */
export function parseRequestTarget(target: string): RequestTarget | null {
  let start = 0;
  if (target.charCodeAt(0) !== 47 /* '/' */) {
    if (target === '*') return { path: '*', query: '' };
    const prefix = ABSOLUTE_FORM_PREFIX.exec(target);
    // An http(s) URI always names a host (RFC 9110 §4.2.1).
    if (prefix === null || prefix[1] === '') return null;
    start = prefix[0].length;
  }
  // A fragment is never sent by a conforming client; it is dropped rather than routed.
  let end = target.indexOf('#', start);
  if (end === -1) end = target.length;
  const questionMark = target.indexOf('?', start);
  if (questionMark === -1 || questionMark > end) {
    return { path: start === end ? '/' : target.slice(start, end), query: '' };
  }
  return {
    path: start === questionMark ? '/' : target.slice(start, questionMark),
    query: target.slice(questionMark + 1, end),
  };
}
