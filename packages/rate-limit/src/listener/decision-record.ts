import type { Request } from '@switchboard/http-kernel';
import type { RateLimitDecision } from '../limiter/rate-limit-decision.js';

/** Which step decided: the per-client limiter, a route's `_rate_limit`, login throttling, or an application's own. */
export type RateLimitSource = 'client' | 'route' | 'login' | (string & {});

export interface RecordedDecision {
  readonly source: RateLimitSource;
  readonly decision: RateLimitDecision;
}

declare module '@switchboard/http-kernel' {
  interface RequestAttributes {
    /** Every rate limit decision taken for the request, in order (the profiler's rate limit panel shows them). */
    _rate_limit_decisions?: RecordedDecision[];
  }
}

/** Keeps a decision on the request, for the response headers and the profiler. */
export function recordDecision(request: Request, source: RateLimitSource, decision: RateLimitDecision): void {
  const recorded = request.attributes.get('_rate_limit_decisions');
  if (recorded === undefined) request.attributes.set('_rate_limit_decisions', [{ source, decision }]);
  else recorded.push({ source, decision });
}

/** The decision a source took for this request, if any. */
export function decisionOf(request: Request, source: RateLimitSource): RateLimitDecision | undefined {
  const recorded = request.attributes.get('_rate_limit_decisions');
  if (recorded === undefined) return undefined;
  for (const entry of recorded) if (entry.source === source) return entry.decision;
  return undefined;
}
