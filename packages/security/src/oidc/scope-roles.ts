import type { TokenClaims } from '../user/user-provider.js';

/** RFC 6749 §3.3: a scope token is printable ASCII without space, `"` or `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/**
 * The roles a token's scopes grant: each scope of `scope` (a space-separated string, RFC 8693/9068)
 * or `scp` (an array or a string, as Entra ID and Okta write it) as `SCOPE_<scope>`, so routes ask
 * for `SCOPE_items:write` with `_is_granted` like any role. Malformed scope tokens are left out.
 */
export function scopeRoles(claims: TokenClaims): string[] {
  const scopes = new Set<string>();
  for (const claim of [claims['scope'], claims['scp']]) {
    const values = typeof claim === 'string' ? claim.split(' ') : Array.isArray(claim) ? claim : [];
    for (const value of values) if (typeof value === 'string' && SCOPE_TOKEN.test(value)) scopes.add(value);
  }
  return [...scopes].map((scope) => `SCOPE_${scope}`);
}
