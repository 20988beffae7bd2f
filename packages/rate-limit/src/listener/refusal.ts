import { channel } from 'node:diagnostics_channel';
import { withoutStackTrace } from '@switchboard/http-kernel';
import { rateLimitHeaders, secondsOf } from '../http/rate-limit-headers.js';
import { TooManyRequestsHttpError } from '../http/too-many-requests-http-error.js';
import type { RateLimitDecision } from '../limiter/rate-limit-decision.js';

/** Published once per request a rate limit refuses (`RateLimitRefusedMessage`), for metrics. */
export const RATE_LIMIT_REFUSED_CHANNEL = 'switchboard.rate-limit.refused';

/** What `RATE_LIMIT_REFUSED_CHANNEL` carries. */
export interface RateLimitRefusedMessage {
  /** The refusing limit's id (`RateLimiter`'s `id`, a route's `_rate_limit` id): from configuration, a bounded set. */
  readonly limiter: string;
}

const refused = channel(RATE_LIMIT_REFUSED_CHANNEL);

/** The 429 a listener throws for a refused decision: rendered by the error controller, with the rate limit fields. */
export function refusalOf(decision: RateLimitDecision, thrownBy: string): TooManyRequestsHttpError {
  if (refused.hasSubscribers) {
    const limiter = decision.results.find((result) => !result.allowed)?.id ?? 'unknown';
    refused.publish({ limiter } satisfies RateLimitRefusedMessage);
  }
  // Built without a stack trace: a flood of refusals must stay cheap, and the thrower is named.
  return withoutStackTrace(
    () =>
      new TooManyRequestsHttpError(`Rate limit exceeded: retry in ${secondsOf(decision.retryAfter)} s.`, {
        headers: rateLimitHeaders(decision),
        thrownBy,
      }),
  );
}
