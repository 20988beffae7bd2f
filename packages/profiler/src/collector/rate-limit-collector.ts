import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import type { Request } from '@switchboard/http-kernel';
import type { CollectContext, DataCollector } from './data-collector.js';

export interface RateLimitResultData {
  readonly id: string;
  /** A client address or network as is; anything else (a username, a user id) as `sha256:` and 16 hex digits. */
  readonly key: string;
  readonly policy: string;
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Seconds until the window resets (a bucket: until it is full). */
  readonly resetSeconds: number;
  /** Seconds until a refused hit would be allowed; 0 when allowed. */
  readonly retryAfterSeconds: number;
}

export interface RateLimitDecisionData {
  /** Which step decided: `client`, `route`, `login`, or an application's own name. */
  readonly source: string;
  readonly allowed: boolean;
  /** The store could not answer and the limiter let the request through. */
  readonly storeUnavailable: boolean;
  readonly results: readonly RateLimitResultData[];
}

export interface RateLimitData {
  readonly decisions: readonly RateLimitDecisionData[];
}

/**
 * Each rate limit decision taken for the request (the `_rate_limit_decisions` attribute the
 * rate-limit package's listeners and login throttling record), or nothing when no limiter looked
 * at it. Read as plain data: the profiler does not depend on the rate-limit package.
 */
export class RateLimitCollector implements DataCollector<RateLimitData> {
  readonly name = 'rate_limit';

  collect({ recording }: CollectContext): RateLimitData | undefined {
    const own = recording.request;
    const decisions = [...decisionsOf(own)];
    const main = own.requestStack?.getMainRequest() ?? own;
    // An error page (a 429 above all) shows the decisions of the request it answers.
    if (decisions.length === 0 && main !== own) decisions.push(...decisionsOf(main));
    return decisions.length === 0 ? undefined : { decisions };
  }
}

function decisionsOf(request: Request): RateLimitDecisionData[] {
  const recorded: unknown = request.attributes.get('_rate_limit_decisions');
  if (!Array.isArray(recorded)) return [];
  return recorded.map((entry: { source?: unknown; decision?: Record<string, unknown> }) => {
    const decision = entry.decision ?? {};
    const results = Array.isArray(decision['results']) ? (decision['results'] as Array<Record<string, unknown>>) : [];
    return {
      source: String(entry.source),
      allowed: decision['allowed'] === true,
      storeUnavailable: decision['storeUnavailable'] === true,
      results: results.map((result) => ({
        id: String(result['id']),
        key: shownKey(String(result['key'])),
        policy: String(result['policy']),
        allowed: result['allowed'] === true,
        limit: Number(result['limit']),
        remaining: Number(result['remaining']),
        resetSeconds: Math.ceil(Number(result['resetAfter']) / 1000),
        retryAfterSeconds: Math.ceil(Number(result['retryAfter']) / 1000),
      })),
    };
  });
}

/**
 * Usernames and identifiers never reach a stored profile; an address, or the network an IPv6 client
 * is counted by (`2001:db8::/64`), is what the request panel shows anyway.
 */
function shownKey(key: string): string {
  const address = /^(.+)\/\d{1,3}$/.exec(key)?.[1] ?? key;
  if (isIP(address) !== 0) return key;
  return `sha256:${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
}
