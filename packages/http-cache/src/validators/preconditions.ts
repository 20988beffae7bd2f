import { parseHttpDate, type Request } from '@switchboard/http-kernel';
import { ifMatchMatches, ifNoneMatchMatches } from './entity-tag.js';
import { isNotModified, type Validators } from './not-modified.js';

/** What the conditional headers of a request decide for the current representation. */
export type PreconditionOutcome = 'proceed' | 'not-modified' | 'precondition-failed';

/**
 * The preconditions of RFC 9110 §13.2.2, in its order: `If-Match` (strong comparison), else
 * `If-Unmodified-Since`, a failure being 412; then `If-None-Match`, else `If-Modified-Since`, whose
 * match is 304 for GET and HEAD (`isNotModified`) and 412 for any other method. `If-Range` comes
 * after these and belongs to whoever serves the range.
 */
export function evaluatePreconditions(request: Request, validators: Validators, now = Date.now()): PreconditionOutcome {
  const ifMatch = request.headers.get('if-match');
  if (ifMatch !== undefined) {
    if (validators.etag === null || !ifMatchMatches(ifMatch, validators.etag)) return 'precondition-failed';
  } else {
    const ifUnmodifiedSince = request.headers.get('if-unmodified-since');
    const since = ifUnmodifiedSince === undefined ? null : parseHttpDate(ifUnmodifiedSince);
    // An invalid date is no condition (§13.1.4); an unknown modification date cannot be proven older.
    if (since !== null && (validators.lastModified === null || seconds(validators.lastModified.getTime()) > seconds(since))) {
      return 'precondition-failed';
    }
  }
  const safe = request.method === 'GET' || request.method === 'HEAD';
  if (safe) return isNotModified(request, validators, now) ? 'not-modified' : 'proceed';
  const ifNoneMatch = request.headers.get('if-none-match');
  if (ifNoneMatch !== undefined && validators.etag !== null && ifNoneMatchMatches(ifNoneMatch, validators.etag))
    return 'precondition-failed';
  return 'proceed';
}

function seconds(time: number): number {
  return Math.floor(time / 1000);
}
