import { withoutStackTrace } from '@switchboard/http-kernel';
import { rateLimitHeaders, secondsOf } from '../http/rate-limit-headers.js';
import { TooManyRequestsHttpError } from '../http/too-many-requests-http-error.js';
import type { RateLimitDecision } from '../limiter/rate-limit-decision.js';

/** The 429 a listener throws for a refused decision: rendered by the error controller, with the rate limit fields. */
export function refusalOf(decision: RateLimitDecision, thrownBy: string): TooManyRequestsHttpError {
  // Built without a stack trace: a flood of refusals must stay cheap, and the thrower is named.
  return withoutStackTrace(
    () =>
      new TooManyRequestsHttpError(`Rate limit exceeded: retry in ${secondsOf(decision.retryAfter)} s.`, {
        headers: rateLimitHeaders(decision),
        thrownBy,
      }),
  );
}
