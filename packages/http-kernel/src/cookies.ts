/**
 * `@switchboard/http-kernel/cookies` — what `request.cookies` and `response.cookies` are made of:
 * the options a cookie is set with and their checks, and values signed (HMAC) or sealed
 * (authenticated encryption) with rotating keys.
 * @module
 */
export { RequestCookies } from './http/cookies/request-cookies.js';
export { ResponseCookies } from './http/cookies/response-cookies.js';
export type { CookieOptions } from './http/cookies/cookie-options.js';
export { InvalidCookieError } from './http/cookies/cookie-validation.js';
export { CookieSigner } from './http/cookies/cookie-signer.js';
export { CookieSealer } from './http/cookies/cookie-sealer.js';
