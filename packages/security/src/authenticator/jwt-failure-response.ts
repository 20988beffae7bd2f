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

/** The 401 answer: `{"code":401,"message":…}` (code first) with its `WWW-Authenticate` challenge. */
export function jwtFailureResponse(failure: JwtFailure): JsonResponse {
  return new JsonResponse({ code: 401, message: JWT_FAILURE_MESSAGES[failure] }, 401, {
    'www-authenticate': CHALLENGES[failure],
  });
}
