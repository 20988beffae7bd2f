import { JsonResponse } from '@switchboard/http-kernel';

/** Why a JWT request was refused; each has its fixed message (the wire format clients know). */
export type JwtFailure = 'not_found' | 'invalid' | 'expired';

export const JWT_FAILURE_MESSAGES: Readonly<Record<JwtFailure, string>> = {
  not_found: 'JWT Token not found',
  invalid: 'Invalid JWT Token',
  expired: 'Expired JWT Token',
};

/**
 * RFC 6750 §3: a request without credentials gets the bare challenge; one with a bad token gets
 * `error="invalid_token"`. The description is the fixed message, nothing from the token.
 */
const CHALLENGES: Readonly<Record<JwtFailure, string>> = {
  not_found: 'Bearer',
  invalid: invalidTokenChallenge('invalid'),
  expired: invalidTokenChallenge('expired'),
};

function invalidTokenChallenge(failure: JwtFailure): string {
  return `Bearer error="invalid_token", error_description="${JWT_FAILURE_MESSAGES[failure]}"`;
}

/**
 * The body of a refused JWT request: `'code-message'`, `{"code":401,"message":…}` (code first), or
 * `'problem+json'`, an RFC 9457 document like the error listener's (`detail` is the message).
 */
export type JwtFailureFormat = 'code-message' | 'problem+json';

/** The 401 answer in `format` (default `'code-message'`) with its `WWW-Authenticate` challenge. */
export function jwtFailureResponse(failure: JwtFailure, format: JwtFailureFormat = 'code-message'): JsonResponse {
  const challenge = { 'www-authenticate': CHALLENGES[failure] };
  const message = JWT_FAILURE_MESSAGES[failure];
  if (format === 'code-message') return new JsonResponse({ code: 401, message }, 401, challenge);
  const problem = { type: 'about:blank', title: 'Unauthorized', status: 401, detail: message };
  return new JsonResponse(problem, 401, { ...challenge, 'content-type': 'application/problem+json' });
}
