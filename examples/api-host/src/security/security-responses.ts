import { defineResponses } from '@switchboard/openapi';
import { z } from 'zod';

/** The JSON refusals of `POST /api/token`, in the bearer firewall's shape (`{ code, message }`). */
const Refusal = (code: 401 | 429 | 503) => z.object({ code: z.literal(code), message: z.string() });

/** An access token, as both token routes answer it. */
const Token = z
  .object({ token: z.string(), token_type: z.literal('Bearer'), expires_in: z.number().int().min(1).describe('Seconds.') })
  .meta({ id: 'Token' });

/** `POST /api/token`: a token, wrong credentials, throttled attempts, or a full password-check queue. */
export const TOKEN_RESPONSES = defineResponses({
  200: {
    schema: Token,
    headers: { 'Cache-Control': { description: '`no-store`: a token is never cached.', required: true } },
  },
  401: {
    description: 'Unknown user or wrong password.',
    schema: Refusal(401),
    headers: { 'WWW-Authenticate': { description: '`Bearer`.', required: true } },
  },
  429: {
    description: 'Too many attempts for this username from this address, or from this address (login throttling).',
    schema: Refusal(429),
    headers: {
      'Retry-After': { description: 'Seconds.', required: true },
      RateLimit: { description: 'The remaining attempts and the seconds to the reset, per limit.', required: true },
      'RateLimit-Policy': { description: 'The limits: attempts per window.', required: true },
    },
  },
  503: {
    description: 'Too many password checks waiting, or the checker process failed.',
    schema: Refusal(503),
    headers: { 'Retry-After': { description: 'Seconds.', required: true } },
  },
});

/** `POST /api/token/refresh`: a new token (and a rotated cookie), or a 401 that clears the cookie. */
export const REFRESH_RESPONSES = defineResponses({
  200: {
    schema: Token,
    headers: {
      'Cache-Control': { description: '`no-store`: a token is never cached.', required: true },
      'Set-Cookie': {
        description: 'The next refresh cookie (`__Secure-refresh`, sealed, `HttpOnly`, `SameSite=Strict`, `Path=/api/token`).',
        required: true,
      },
    },
  },
  401: {
    description: 'No refresh cookie, an unknown or expired one, or a spent one (which revokes its family).',
    schema: Refusal(401),
    headers: { 'Set-Cookie': { description: 'Clears the refresh cookie.', required: true } },
  },
});

/** `GET /api/me`: who the token names. */
export const ME_RESPONSES = defineResponses({
  200: z.object({ username: z.string(), roles: z.array(z.string()) }).meta({ id: 'CurrentUser' }),
});

/** `GET /api/admin`: the admin's name. */
export const ADMIN_RESPONSES = defineResponses({ 200: z.object({ admin: z.string() }) });
