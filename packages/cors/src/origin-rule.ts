/**
 * One entry of an allowed-origins list:
 * - a string: that exact origin (compared case-insensitively, since scheme and host are), or `*` for any;
 * - a RegExp: matched against the whole raw `Origin` header — always anchored at both ends and
 *   case-insensitive, whatever the pattern says (a forgotten `$` cannot let `localhost.evil.com` in);
 * - a function: called with the raw header value, decides alone.
 */
export type OriginRule = string | RegExp | ((origin: string) => boolean);

/** Decides whether a raw `Origin` header value is allowed. */
export type OriginMatcher = (origin: string) => boolean;

/**
 * The service's rule: `http` or `https`, host `localhost` or `127.0.0.1`,
 * optionally `:` and digits — nothing else (no path, userinfo, trailing dot or other spelling).
 */
export const LOOPBACK_ORIGIN = /^https?:\/\/(?:localhost|127\.0\.0\.1)(?::[0-9]+)?$/i;

/** Longer than any real origin; refused before a pattern ever runs on it. */
const MAX_ORIGIN_LENGTH = 2048;

/** Compiles a list of rules into one matcher; an origin is allowed when any rule accepts it. */
export function compileOriginRules(rules: readonly OriginRule[]): OriginMatcher {
  if (rules.some((rule) => rule === '*')) return () => true;
  const matchers = rules.map(compileRule);
  return (origin) => origin.length <= MAX_ORIGIN_LENGTH && matchers.some((matches) => matches(origin));
}

function compileRule(rule: OriginRule): OriginMatcher {
  if (typeof rule === 'function') return (origin) => rule(origin) === true;
  if (typeof rule === 'string') {
    assertOrigin(rule);
    const expected = rule.toLowerCase();
    return (origin) => origin.toLowerCase() === expected;
  }
  return anchored(rule);
}

/**
 * An origin is a scheme, a host and an optional port, exactly as a browser sends it: a rule copied
 * with a path or a trailing slash (`https://notes.example/`), or without its scheme, could never
 * match, so it is refused where it is written.
 */
function assertOrigin(rule: string): void {
  let url: URL | null = null;
  try {
    url = /^[a-z][a-z0-9+.-]*:\/\//i.test(rule) ? new URL(rule) : null;
  } catch {
    url = null;
  }
  if (url === null || url.origin === 'null') {
    throw new TypeError(
      `CORS: allowed origin "${rule}" needs a scheme and a host, as a browser sends it (e.g. "https://${rule.replace(/^\/+/, '')}").`,
    );
  }
  if (url.origin.toLowerCase() !== rule.toLowerCase()) {
    throw new TypeError(
      `CORS: allowed origin "${rule}" is not an origin (scheme, host and port only, no path or trailing slash): write "${url.origin}".`,
    );
  }
}

/**
 * Re-compiles a pattern so it must match the whole value: wrapped in `^(?:…)$`, flag `i` added,
 * and `g`/`y` (stateful `lastIndex`) and `m` (`^`/`$` at line breaks) dropped.
 */
function anchored(pattern: RegExp): OriginMatcher {
  const flags = [...new Set(`${pattern.flags.replace(/[gym]/g, '')}i`)].join('');
  const whole = new RegExp(`^(?:${pattern.source})$`, flags);
  return (origin) => whole.test(origin);
}
