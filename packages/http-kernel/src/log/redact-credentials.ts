/** What a log line or a profile shows instead of a credential. */
export const REDACTED = '[redacted]';

/**
 * A JWT (compact JWS): three base64url segments. The first is a JSON object, so it starts `ey`;
 * ten characters or more, so words such as `eyes.are.blue` are left alone. The signature may be
 * empty (`alg: none`).
 */
const JWT = /(?<![A-Za-z0-9_-])ey[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]*(?![A-Za-z0-9_-])/g;
/**
 * `Bearer <token>`, also with the space percent- or form-encoded as in a URL (`Bearer%20…`,
 * `Bearer+…`). Eight characters or more, so prose (`a bearer of news`) is left alone; not a
 * `Bearer realm="api"` challenge: a token is not followed by `="`.
 */
const BEARER = /\b(Bearer)(\s+|%20|\+)[A-Za-z0-9._~+/-]{8,}=*(?![A-Za-z0-9._~+/="-])/gi;

/**
 * Hides bearer-shaped credentials in text meant for people (log messages, profiles): every
 * JWT-shaped string and the value after `Bearer`. For request data that carries a token outside
 * the `Authorization` header: a query string, a path, a `Referer`, a cookie.
 */
export function redactCredentials(text: string): string {
  if (!text.includes('ey') && !/bearer/i.test(text)) return text;
  return text.replace(JWT, REDACTED).replace(BEARER, `$1$2${REDACTED}`);
}
