import { JsonResponse } from '@switchboard/http-kernel';
import type { JwtFailureFormat } from './jwt-failure-response.js';

export const KEY_SET_UNAVAILABLE_MESSAGE = 'Token keys unavailable';

/**
 * The answer when a token cannot be checked because its issuer's keys are unavailable (never
 * fetched, or past `staleIfError` with the provider unreachable): 503 with `Retry-After`, since
 * the client's token may well be good. Same body formats as the 401s.
 */
export function keySetUnavailableResponse(retryAfter: number, format: JwtFailureFormat = 'code-message'): JsonResponse {
  const headers = { 'retry-after': String(retryAfter), 'cache-control': 'no-store' };
  if (format === 'code-message') return new JsonResponse({ code: 503, message: KEY_SET_UNAVAILABLE_MESSAGE }, 503, headers);
  const problem = { type: 'about:blank', title: 'Service Unavailable', status: 503, detail: KEY_SET_UNAVAILABLE_MESSAGE };
  return new JsonResponse(problem, 503, { ...headers, 'content-type': 'application/problem+json' });
}
