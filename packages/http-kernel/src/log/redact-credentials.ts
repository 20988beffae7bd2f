/** What a log line or a profile shows instead of a credential. */
export const REDACTED = '[redacted]';

/**
 * A JWT (compact JWS): three base64url segments. The first is a JSON object, so it starts `ey`;
 * ten characters or more, so words such as `eyes.are.blue` are left alone. The signature may be
 * empty (`alg: none`). Linear: the segments cannot contain their `.` separators, and a match
 * starts only where a run of segment characters starts.
 */
const JWT = /(?<![A-Za-z0-9_-])ey[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]*(?![A-Za-z0-9_-])/g;

/** `Bearer` and its separator: spaces, or the space percent- or form-encoded as in a URL (`%20`, `+`). */
const BEARER_PREFIX = /\b(?:Bearer)(?:\s+|%20|\+)/gi;
/**
 * The value after the prefix: the maximal run of token characters (RFC 6750 b64token, plus `+`
 * and `/` of base64), then its `=` padding. Every quantifier is greedy over a class the next part
 * cannot start with, and the whole pattern can match the empty string, so it never backtracks.
 */
const BEARER_VALUE = /([A-Za-z0-9._~+/-]*)=*/y;
/** A character that, right after a value's padding, means it was no token (`realm="api"`, `a=b`). */
const NOT_A_TOKEN_END = /[A-Za-z0-9._~+/"-]/;
/** Shorter values are prose (`a bearer of news`), not credentials. */
const MIN_BEARER_TOKEN = 8;
/**
 * A value this long is hidden whatever follows it: no challenge parameter is that long, and
 * the firewall refuses longer tokens (its `maxTokenLength` default), so it is no credential
 * worth telling apart.
 */
const MAX_BEARER_TOKEN = 8192;

/**
 * Hides bearer-shaped credentials in text meant for people (log messages, profiles): every
 * JWT-shaped string and the value after `Bearer`. For request data that carries a token outside
 * the `Authorization` header: a query string, a path, a `Referer`, a cookie. Takes time linear in
 * the text's length, whatever it holds.
 */
export function redactCredentials(text: string): string {
  if (!text.includes('ey') && !/bearer/i.test(text)) return text;
  return redactBearerValues(text.replace(JWT, REDACTED));
}

/**
 * Each `Bearer <value>`: the prefix is found, then the value's whole run is read once and the
 * decision (a token, or prose, or a challenge parameter) is taken on that run. A refused run is
 * not read again from a later `Bearer` inside it: such a value ends where the run ends, so it is
 * refused for the same reason; only a `Bearer` that ends the run (`… Bearer <value>`) is looked at.
 */
function redactBearerValues(text: string): string {
  BEARER_PREFIX.lastIndex = 0;
  let result = '';
  let copiedUpTo = 0;
  for (let prefix = BEARER_PREFIX.exec(text); prefix !== null; prefix = BEARER_PREFIX.exec(text)) {
    const valueStart = prefix.index + prefix[0].length;
    BEARER_VALUE.lastIndex = valueStart;
    const value = BEARER_VALUE.exec(text)!;
    const runEnd = valueStart + value[0].length;
    const tokenLength = value[1]!.length;
    const isToken = tokenLength >= MAX_BEARER_TOKEN || (tokenLength >= MIN_BEARER_TOKEN && !NOT_A_TOKEN_END.test(text.charAt(runEnd)));
    if (isToken) {
      result += text.slice(copiedUpTo, valueStart) + REDACTED;
      copiedUpTo = runEnd;
      BEARER_PREFIX.lastIndex = runEnd;
    } else {
      // A `Bearer` that ends this run (its separator starts at runEnd) is 6 characters back.
      BEARER_PREFIX.lastIndex = Math.max(valueStart, runEnd - 6);
    }
  }
  return copiedUpTo === 0 ? text : result + text.slice(copiedUpTo);
}
