import { createHash, type KeyObject } from 'node:crypto';

/** RFC 7638 §3.2: the members a thumbprint covers, per key type, in lexicographic order. */
const REQUIRED_MEMBERS: Readonly<Record<string, readonly string[]>> = {
  RSA: ['e', 'kty', 'n'],
  EC: ['crv', 'kty', 'x', 'y'],
  OKP: ['crv', 'kty', 'x'],
};

/**
 * The RFC 7638 SHA-256 thumbprint of a public (or private) asymmetric key, base64url: the `kid`
 * the token issuer writes and the JWT authenticator looks keys up by. Synchronous, so it can run
 * in constructors.
 */
export function jwkThumbprint(key: KeyObject): string {
  const jwk = key.export({ format: 'jwk' }) as Record<string, unknown>;
  const members = REQUIRED_MEMBERS[String(jwk['kty'])];
  if (members === undefined) throw new TypeError(`No JWK thumbprint for key type ${String(jwk['kty'])}.`);
  // Members as JSON strings without whitespace, in the order above: the RFC's canonical form.
  const canonical = `{${members.map((name) => `${JSON.stringify(name)}:${JSON.stringify(jwk[name])}`).join(',')}}`;
  return createHash('sha256').update(canonical).digest('base64url');
}
