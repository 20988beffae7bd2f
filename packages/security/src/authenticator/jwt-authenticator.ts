import { createPublicKey, type KeyObject } from 'node:crypto';
import type { Request, Response } from '@switchboard/http-kernel';
import { decodeProtectedHeader, errors, jwtVerify, type JWTPayload, type JWTVerifyOptions } from 'jose';
import { assertKeyFitsAlgorithm, type JwsAlgorithm } from '../key/jws-algorithms.js';
import { jwkThumbprint } from '../key/jwk-thumbprint.js';
import { KeyLoadError } from '../key/key-load-error.js';
import { ClaimsUserProvider } from '../user/claims-user-provider.js';
import type { UserProvider } from '../user/user-provider.js';
import type { AuthenticationOutcome, Authenticator } from './authenticator.js';
import { extractBearerToken } from './bearer-token-extractor.js';
import { JWT_FAILURE_MESSAGES, jwtFailureResponse, type JwtFailure, type JwtFailureFormat } from './jwt-failure-response.js';

export interface JwtAuthenticatorOptions {
  /** The verification key (see `loadJwtKeys`). */
  publicKey: KeyObject;
  /**
   * Further keys a token may name by its `kid` header (the key's RFC 7638 thumbprint, which
   * `JwtTokenIssuer` writes): the previous key during a rotation, until the tokens it signed have
   * expired. A token is checked against the one key its `kid` names, never each key in turn; a
   * token without `kid` against `publicKey` only.
   */
  additionalPublicKeys?: readonly KeyObject[];
  /** Accepted `alg` values; the token's header cannot widen this. Default `['RS256']`. */
  algorithms?: readonly JwsAlgorithm[];
  /** Seconds of tolerance on `exp`, `nbf` and `iat`. Default 0. */
  clockSkew?: number;
  /** Required `iss` (one of these) when set. */
  issuer?: string | readonly string[];
  /** Required `aud` (one of these) when set. */
  audience?: string | readonly string[];
  /** The claim naming the user. Default `username`. */
  userIdClaim?: string;
  /** Default: the user is built from the token's claims (`ClaimsUserProvider`). */
  userProvider?: UserProvider;
  /** Longer tokens are refused before any parsing. Default 8192 characters. */
  maxTokenLength?: number;
  /** The current time; tests may pin it. */
  now?: () => Date;
  /**
   * The 401's body: `'code-message'` (default, `{"code":401,"message":…}`) or `'problem+json'`,
   * the same problem document the error listener writes, so clients need one parser.
   */
  failureFormat?: JwtFailureFormat;
}

/**
 * Authenticates `Authorization: Bearer <JWT>` with jose. A token must carry `exp`; `nbf` and
 * `iat` are checked when present. The signature is verified before any claim, so a forged
 * token is "Invalid" even when its `exp` has passed. Whatever jose or node:crypto throws while
 * verifying — including plain `TypeError`s on key-type confusion — is a 401, never a 500.
 */
export class JwtAuthenticator implements Authenticator {
  readonly name = 'jwt';
  readonly #publicKey: KeyObject;
  /** By RFC 7638 thumbprint: the key a token's `kid` names. */
  readonly #keysById: ReadonlyMap<string, KeyObject>;
  /** Built once: only `currentDate` changes from one request to the next. */
  readonly #verifyOptions: JWTVerifyOptions;
  readonly #clockSkew: number;
  readonly #userIdClaim: string;
  readonly #userProvider: UserProvider;
  readonly #maxTokenLength: number;
  readonly #now: () => Date;
  readonly #failureFormat: JwtFailureFormat;

  constructor(options: JwtAuthenticatorOptions) {
    const publicKeys = [options.publicKey, ...(options.additionalPublicKeys ?? [])];
    const algorithms = options.algorithms ?? ['RS256'];
    if (algorithms.length === 0) throw new KeyLoadError('The JWT algorithm allow-list is empty.');
    for (const key of publicKeys) for (const algorithm of algorithms) assertKeyFitsAlgorithm(algorithm, key, 'verify');
    this.#publicKey = options.publicKey;
    // A private key given by mistake is reduced to its public half before it is kept.
    this.#keysById = new Map(publicKeys.map((key) => [jwkThumbprint(key), key.type === 'private' ? createPublicKey(key) : key]));
    this.#clockSkew = options.clockSkew ?? 0;
    if (!Number.isFinite(this.#clockSkew) || this.#clockSkew < 0) {
      throw new RangeError(`JWT clock skew must be a number of seconds ≥ 0, got ${String(options.clockSkew)}.`);
    }
    this.#verifyOptions = {
      algorithms: [...algorithms],
      requiredClaims: ['exp'],
      clockTolerance: this.#clockSkew,
      ...(options.issuer === undefined ? {} : { issuer: [options.issuer].flat() }),
      ...(options.audience === undefined ? {} : { audience: [options.audience].flat() }),
    };
    this.#userIdClaim = options.userIdClaim ?? 'username';
    this.#userProvider = options.userProvider ?? new ClaimsUserProvider();
    this.#maxTokenLength = options.maxTokenLength ?? 8192;
    this.#now = options.now ?? (() => new Date());
    this.#failureFormat = options.failureFormat ?? 'code-message';
  }

  async authenticate(request: Request): Promise<AuthenticationOutcome> {
    const token = extractBearerToken(request);
    if (token === null) return { kind: 'absent' };
    const verified = await this.#verify(token);
    if (typeof verified === 'string') return this.#failed(verified);
    const identifier = verified[this.#userIdClaim];
    if (typeof identifier !== 'string' || identifier === '') return this.#failed('invalid');
    const user = await this.#userProvider.loadUser(identifier, verified);
    if (user === null) return this.#failed('invalid');
    // `exp` is required, so verified tokens always carry it.
    return { kind: 'authenticated', user, expiresAt: new Date((verified.exp as number) * 1000) };
  }

  start(): Response {
    return jwtFailureResponse('not_found', this.#failureFormat);
  }

  #failed(failure: JwtFailure): AuthenticationOutcome {
    return { kind: 'failed', reason: JWT_FAILURE_MESSAGES[failure], response: jwtFailureResponse(failure, this.#failureFormat) };
  }

  /** The one key the token's `kid` names (`publicKey` when it names none), or `null`. */
  #keyFor(token: string): KeyObject | null {
    let kid: unknown;
    try {
      ({ kid } = decodeProtectedHeader(token));
    } catch {
      return null;
    }
    if (kid === undefined) return this.#publicKey;
    return typeof kid === 'string' ? (this.#keysById.get(kid) ?? null) : null;
  }

  /** The verified claims, or why the token is refused. */
  async #verify(token: string): Promise<JWTPayload | JwtFailure> {
    if (token.length > this.#maxTokenLength) return 'invalid';
    const currentDate = this.#now();
    const key = this.#keyFor(token);
    if (key === null) return 'invalid';
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, key, { ...this.#verifyOptions, currentDate }));
    } catch (error) {
      return error instanceof errors.JWTExpired ? 'expired' : 'invalid';
    }
    // jose only bounds `iat` with maxTokenAge; a token issued in the future is as wrong as one not yet valid.
    if (typeof payload.iat === 'number' && payload.iat > currentDate.getTime() / 1000 + this.#clockSkew) return 'invalid';
    return payload;
  }
}
