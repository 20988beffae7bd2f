/** The headers the listener sets, by lower-case name. */
export type SecurityHeaderName =
  | 'x-content-type-options'
  | 'x-frame-options'
  | 'content-security-policy'
  | 'referrer-policy'
  | 'strict-transport-security'
  | 'cross-origin-opener-policy'
  | 'permissions-policy';

/**
 * Header values by name: a string sets the header, `null` leaves it out. What a route's
 * `_security_headers` and the listener's `headers` option take; `false` for a route turns the
 * listener off for it.
 */
export type SecurityHeaders = Partial<Record<SecurityHeaderName, string | null>>;

/**
 * What the OWASP REST Security Cheat Sheet asks of every API response: no MIME sniffing, no
 * framing, no resources loaded by a response rendered as a page, no referrer, HTTPS only for a
 * year (sent over HTTPS only).
 */
export const DEFAULT_SECURITY_HEADERS: Readonly<
  Required<
    Pick<
      SecurityHeaders,
      'x-content-type-options' | 'x-frame-options' | 'content-security-policy' | 'referrer-policy' | 'strict-transport-security'
    >
  >
> = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy': "frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
};

const NAMES: ReadonlySet<string> = new Set<SecurityHeaderName>([
  'x-content-type-options',
  'x-frame-options',
  'content-security-policy',
  'referrer-policy',
  'strict-transport-security',
  'cross-origin-opener-policy',
  'permissions-policy',
]);

/** Throws for a declaration with an unknown header name or a value that is not a string or `null`. */
export function assertSecurityHeaders(headers: unknown, where: string): asserts headers is SecurityHeaders | false {
  if (headers === false) return;
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) {
    throw new TypeError(`${where} must be false or an object of header values.`);
  }
  for (const [name, value] of Object.entries(headers)) {
    if (!NAMES.has(name)) throw new TypeError(`${where}: unknown security header "${name}" (known: ${[...NAMES].join(', ')}).`);
    if (value !== null && (typeof value !== 'string' || /[\r\n]/.test(value))) {
      throw new TypeError(`${where}: the value of "${name}" must be a one-line string or null.`);
    }
  }
}
