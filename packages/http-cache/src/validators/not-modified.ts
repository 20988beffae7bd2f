import { parseHttpDate, Response, type HeaderBag, type Request } from '@switchboard/http-kernel';
import { ifNoneMatchMatches } from './entity-tag.js';

export interface Validators {
  readonly etag: string | null;
  readonly lastModified: Date | null;
}

/**
 * Whether the client's copy is current (RFC 9110 §13.2.2): only for GET and HEAD; `If-None-Match`
 * decides when present (weak comparison) and `If-Modified-Since` is then ignored; otherwise
 * `If-Modified-Since` — not a valid HTTP-date, or in the future, means "no condition" — is compared at
 * one-second precision, the precision of the header.
 */
export function isNotModified(request: Request, validators: Validators, now = Date.now()): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const ifNoneMatch = request.headers.get('if-none-match');
  if (ifNoneMatch !== undefined) return validators.etag !== null && ifNoneMatchMatches(ifNoneMatch, validators.etag);
  const ifModifiedSince = request.headers.get('if-modified-since');
  if (ifModifiedSince === undefined || validators.lastModified === null) return false;
  const since = parseHttpDate(ifModifiedSince, now);
  if (since === null || since > now) return false;
  return Math.floor(validators.lastModified.getTime() / 1000) <= Math.floor(since / 1000);
}

/** Headers a 304 repeats from the response it stands for (RFC 9110 §15.4.5), besides the validators. */
const KEPT_BY_NOT_MODIFIED = ['cache-control', 'content-location', 'expires', 'vary'];

/**
 * The 304 for a current copy: the ETag, and the Last-Modified only when there is no ETag, plus
 * (given the headers of the full response) its Cache-Control, Content-Location, Expires and Vary.
 */
export function notModifiedResponse(validators: Validators, fullHeaders?: HeaderBag): Response {
  const response = new Response(null, 304);
  if (validators.etag !== null) response.headers.set('etag', validators.etag);
  else if (validators.lastModified !== null) response.headers.set('last-modified', validators.lastModified.toUTCString());
  for (const name of fullHeaders === undefined ? [] : KEPT_BY_NOT_MODIFIED) {
    for (const value of fullHeaders?.getAll(name) ?? []) response.headers.append(name, value);
  }
  return response;
}
