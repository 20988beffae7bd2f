import { createPublicKey, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import { assertKeyFitsAlgorithm, type JwsAlgorithm } from '../key/jws-algorithms.js';
import { jwkThumbprint } from '../key/jwk-thumbprint.js';
import { KeyLoadError } from '../key/key-load-error.js';
import type { SecurityUser } from '../user/security-user.js';

export interface JwtTokenIssuerOptions {
  /** The signing key (see `loadJwtKeys`). */
  privateKey: KeyObject;
  /** Default `RS256`. */
  algorithm?: JwsAlgorithm;
  /** Lifetime in seconds (`exp - iat`). Default 3600. */
  ttl?: number;
  issuer?: string;
  audience?: string | readonly string[];
  /** Claim holding the user's identifier; must match the authenticator's. Default `username`. */
  userIdClaim?: string;
  now?: () => Date;
}

/** Claims the issuer sets itself; extra claims cannot override them. */
const REGISTERED = ['iat', 'nbf', 'exp', 'iss', 'aud'];

/**
 * Signs access tokens: the user's identifier and roles, `iat`, `nbf`, `exp`, and `iss`/`aud` when
 * configured; the header's `kid` is the RFC 7638 thumbprint of the key.
 */
export class JwtTokenIssuer {
  readonly #key: KeyObject;
  readonly #algorithm: JwsAlgorithm;
  readonly #ttl: number;
  readonly #options: JwtTokenIssuerOptions;
  readonly #userIdClaim: string;
  /** The RFC 7638 thumbprint of the public key: the `kid` verifiers look the key up by. */
  readonly #kid: string;

  constructor(options: JwtTokenIssuerOptions) {
    const algorithm = options.algorithm ?? 'RS256';
    if (options.privateKey.type !== 'private') throw new KeyLoadError('The JWT token issuer needs a private key.');
    assertKeyFitsAlgorithm(algorithm, options.privateKey, 'sign');
    this.#ttl = options.ttl ?? 3600;
    if (!Number.isInteger(this.#ttl) || this.#ttl <= 0)
      throw new RangeError(`JWT lifetime must be a whole number of seconds > 0, got ${String(options.ttl)}.`);
    this.#key = options.privateKey;
    this.#algorithm = algorithm;
    this.#options = options;
    this.#userIdClaim = options.userIdClaim ?? 'username';
    this.#kid = jwkThumbprint(createPublicKey(options.privateKey));
  }

  get ttl(): number {
    return this.#ttl;
  }

  async issueToken(user: SecurityUser, claims: Readonly<Record<string, unknown>> = {}): Promise<string> {
    const payload: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(claims)) if (!REGISTERED.includes(name)) payload[name] = value;
    payload[this.#userIdClaim] = user.identifier;
    payload['roles'] = [...user.roles];
    const now = Math.floor((this.#options.now?.() ?? new Date()).getTime() / 1000);
    const jwt = new SignJWT(payload)
      .setProtectedHeader({ alg: this.#algorithm, typ: 'JWT', kid: this.#kid })
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(now + this.#ttl);
    if (this.#options.issuer !== undefined) jwt.setIssuer(this.#options.issuer);
    if (this.#options.audience !== undefined) jwt.setAudience([this.#options.audience].flat());
    return jwt.sign(this.#key);
  }
}
