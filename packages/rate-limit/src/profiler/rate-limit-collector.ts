import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import type { Request } from '@switchboard/http-kernel';
import type { CollectContext, DataCollector } from '@switchboard/profiler/collector';
import type { LimitResult } from '../limiter/rate-limit-decision.js';
import type { RecordedDecision } from '../listener/decision-record.js';

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
 * Each rate limit decision taken for the request (those `recordDecision` kept: the listeners',
 * login throttling's, an application's own), or nothing when no limiter looked at it.
 */
export class RateLimitCollector implements DataCollector<RateLimitData> {
  readonly name = 'rate_limit';

  collect({ recording }: CollectContext): RateLimitData | undefined {
    const own = recording.request;
    const decisions = decisionsOf(own);
    const main = own.requestStack?.getMainRequest() ?? own;
    // An error page (a 429 above all) shows the decisions of the request it answers.
    if (decisions.length === 0 && main !== own) decisions.push(...decisionsOf(main));
    return decisions.length === 0 ? undefined : { decisions };
  }
}

function decisionsOf(request: Request): RateLimitDecisionData[] {
  const recorded: readonly RecordedDecision[] = request.attributes.get('_rate_limit_decisions') ?? [];
  return recorded.map(({ source, decision }) => ({
    source,
    allowed: decision.allowed,
    storeUnavailable: decision.storeUnavailable,
    results: decision.results.map(resultData),
  }));
}

function resultData(result: LimitResult): RateLimitResultData {
  return {
    id: result.id,
    key: shownKey(result.key),
    policy: result.policy,
    allowed: result.allowed,
    limit: result.limit,
    remaining: result.remaining,
    resetSeconds: Math.ceil(result.resetAfter / 1000),
    retryAfterSeconds: Math.ceil(result.retryAfter / 1000),
  };
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
