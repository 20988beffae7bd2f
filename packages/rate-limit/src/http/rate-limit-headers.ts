import type { HeaderBag } from '@switchboard/http-kernel';
import type { LimitResult, RateLimitDecision } from '../limiter/rate-limit-decision.js';

/**
 * The response fields of a limited request, in the syntax of the IETF draft
 * draft-ietf-httpapi-ratelimit-headers-10 (structured-field lists, one item per limit):
 * - `RateLimit-Policy: "id";q=<limit>;w=<window seconds>`;
 * - `RateLimit: "id";r=<remaining>;t=<seconds until reset>`;
 * - and on a refusal `Retry-After: <seconds>` (RFC 9110).
 */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  const headers: Record<string, string> = {};
  if (decision.results.length > 0) {
    headers['ratelimit-policy'] = decision.results.map(policyItem).join(', ');
    headers['ratelimit'] = decision.results.map(stateItem).join(', ');
  }
  if (!decision.allowed) headers['retry-after'] = String(secondsOf(decision.retryAfter));
  return headers;
}

/** Sets the fields on a response; a second limited step (client, then route) appends its items to the lists. */
export function setRateLimitHeaders(headers: HeaderBag, decision: RateLimitDecision): void {
  for (const [name, value] of Object.entries(rateLimitHeaders(decision))) {
    const existing = headers.get(name);
    headers.set(name, existing === undefined || name === 'retry-after' ? value : `${existing}, ${value}`);
  }
}

function policyItem(result: LimitResult): string {
  return `"${result.id}";q=${result.limit};w=${secondsOf(result.intervalMs)}`;
}

function stateItem(result: LimitResult): string {
  return `"${result.id}";r=${Math.max(0, result.remaining)};t=${secondsOf(result.allowed ? result.resetAfter : result.retryAfter)}`;
}

/** Whole seconds, rounded up: a client waiting that long is never early. */
export function secondsOf(milliseconds: number): number {
  return Math.max(0, Math.ceil(milliseconds / 1000));
}
