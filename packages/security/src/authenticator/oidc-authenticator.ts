import type { KeyObject } from 'node:crypto';
import type { Request, Response } from '@switchboard/http-kernel';
import { decodeJwt, decodeProtectedHeader, errors, jwtVerify, type JWTPayload } from 'jose';
import { isSupportedAlgorithm, type JwsAlgorithm } from '../key/jws-algorithms.js';
import { KeyLoadError } from '../key/key-load-error.js';
import { OidcIssuer, type OidcIssuerKeys } from '../oidc/oidc-issuer.js';
import { KeySetUnavailableError } from '../oidc/remote-key-set.js';
import { scopeRoles } from '../oidc/scope-roles.js';
import type { SecurityUser } from '../user/security-user.js';
import type { TokenClaims, UserProvider } from '../user/user-provider.js';
import type { AuthenticationOutcome, Authenticator } from './authenticator.js';
import { extractBearerToken } from './bearer-token-extractor.js';
import { JWT_FAILURE_MESSAGES, jwtFailureResponse, type JwtFailure, type JwtFailureFormat } from './jwt-failure-response.js';
import { keySetUnavailableResponse, KEY_SET_UNAVAILABLE_MESSAGE } from './key-set-unavailable-response.js';

/** One identity provider whose access tokens are accepted. */
export interface OidcIssuerOptions extends OidcIssuerKeys {
  /** Required `aud` (one of these). */
  readonly audience: string | readonly string[];
  /** When set, the token's `azp` must be present and one of these (the clients allowed to call). */
  readonly authorizedParties?: string | readonly string[];
  /** Accepted `alg` values, intersected with each key's type and `alg`. Default `['RS256']`. No HMAC. */
  readonly algorithms?: readonly JwsAlgorithm[];
  /** Require the RFC 9068 header `typ: at+jwt`, so an ID token is not taken for an access token. Default `false`. */
  readonly requireAccessTokenType?: boolean;
}

export interface OidcAuthenticatorOptions {
  /** The token's `iss` picks the issuer; its keys alone can verify the token. */
  readonly issuers: readonly OidcIssuerOptions[];
  /** Seconds of tolerance on `exp`, `nbf` and `iat` (the provider's clock is not ours). Default 30. */
  readonly clockSkew?: number;
  /** The claim naming the user. Default `sub`. */
  readonly userIdClaim?: string;
  /** Default: roles from the token's scopes (`SCOPE_<scope>`, see `scopeRoles`) and from `rolesClaim`. */
  readonly userProvider?: UserProvider;
  /** A claim holding an array of roles to grant besides the scopes (e.g. `roles`). Default none. */
  readonly rolesClaim?: string;
  /**
   * Leave a token whose `iss` is none of `issuers` (or that is no JWT) to the next authenticator
   * (`absent`) instead of refusing it: for running beside a `JwtAuthenticator` of local keys.
   * Default `false`.
   */
  readonly passOtherIssuers?: boolean;
  /** Longer tokens are refused before any parsing. Default 8192 characters. */
  readonly maxTokenLength?: number;
  /** The 401/503 body, as `JwtAuthenticator`'s. Default `'code-message'`. */
  readonly failureFormat?: JwtFailureFormat;
  /** The current time for the claims (and the key sets unless theirs is set); tests may drive it. */
  readonly now?: () => Date;
}

interface ConfiguredIssuer {
  readonly keys: OidcIssuer;
  readonly algorithms: readonly JwsAlgorithm[];
  readonly audience: string[];
  readonly authorizedParties: readonly string[] | null;
  readonly typ: string | undefined;
}

/** Why a token was refused, the 503 when it could not be checked, or `other` when it is not for this authenticator. */
type Refusal = JwtFailure | 'unavailable' | 'other';

/**
 * Authenticates `Authorization: Bearer <JWT>` access tokens of OpenID Connect providers. The
 * unverified `iss` only selects an issuer; that issuer's key set gives the one key the `kid`
 * names, and jose verifies signature, `alg` (allow-list ∩ key), `iss`, `aud`, `exp`/`nbf`/`iat`
 * and `typ`. Refusals are `JwtAuthenticator`'s 401s (`error="invalid_token"`, no detail); keys
 * that cannot be had are a 503 with `Retry-After`.
 */
export class OidcAuthenticator implements Authenticator {
  readonly name = 'oidc';
  readonly #issuers: ReadonlyMap<string, ConfiguredIssuer>;
  readonly #clockSkew: number;
  readonly #userIdClaim: string;
  readonly #userProvider: UserProvider | null;
  readonly #rolesClaim: string | undefined;
  readonly #maxTokenLength: number;
  readonly #passOtherIssuers: boolean;
  readonly #failureFormat: JwtFailureFormat;
  readonly #now: () => Date;

  constructor(options: OidcAuthenticatorOptions) {
    if (options.issuers.length === 0) throw new KeyLoadError('The OIDC authenticator has no issuer.');
    this.#now = options.now ?? (() => new Date());
    const issuers = new Map<string, ConfiguredIssuer>();
    for (const config of options.issuers) {
      if (issuers.has(config.issuer)) throw new KeyLoadError(`The OIDC issuer ${config.issuer} is configured twice.`);
      const algorithms = config.algorithms ?? ['RS256'];
      if (algorithms.length === 0) throw new KeyLoadError(`The algorithm allow-list of ${config.issuer} is empty.`);
      for (const algorithm of algorithms) {
        if (!isSupportedAlgorithm(algorithm)) {
          throw new KeyLoadError(`JWT algorithm "${algorithm}" is not supported (use RS*, PS*, ES* or EdDSA).`);
        }
      }
      const audience = [config.audience].flat();
      if (audience.length === 0) throw new KeyLoadError(`The OIDC issuer ${config.issuer} needs an audience.`);
      issuers.set(config.issuer, {
        keys: new OidcIssuer({ ...config, keySet: { now: this.#now, ...config.keySet } }),
        algorithms,
        audience,
        authorizedParties: config.authorizedParties === undefined ? null : [config.authorizedParties].flat(),
        typ: config.requireAccessTokenType === true ? 'at+jwt' : undefined,
      });
    }
    this.#issuers = issuers;
    this.#clockSkew = options.clockSkew ?? 30;
    if (!Number.isFinite(this.#clockSkew) || this.#clockSkew < 0) {
      throw new RangeError(`JWT clock skew must be a number of seconds ≥ 0, got ${String(options.clockSkew)}.`);
    }
    this.#userIdClaim = options.userIdClaim ?? 'sub';
    this.#userProvider = options.userProvider ?? null;
    this.#rolesClaim = options.rolesClaim;
    this.#maxTokenLength = options.maxTokenLength ?? 8192;
    this.#passOtherIssuers = options.passOtherIssuers ?? false;
    this.#failureFormat = options.failureFormat ?? 'code-message';
  }

  /** The issuers' key sets, by issuer: for a readiness check or a status page. */
  get issuers(): readonly OidcIssuer[] {
    return [...this.#issuers.values()].map((issuer) => issuer.keys);
  }

  /** Fetches what is missing and says whether every issuer has usable keys: a `Readiness` check. */
  async ready(): Promise<boolean> {
    const states = await Promise.all(this.issuers.map((issuer) => issuer.ready()));
    return states.every(Boolean);
  }

  async authenticate(request: Request): Promise<AuthenticationOutcome> {
    const token = extractBearerToken(request);
    if (token === null) return { kind: 'absent' };
    const verified = await this.#verify(token, request);
    if (verified === 'other') return this.#passOtherIssuers ? { kind: 'absent' } : this.#failed('invalid', request);
    if (typeof verified === 'string') return this.#failed(verified, request);
    const identifier = verified.payload[this.#userIdClaim];
    if (typeof identifier !== 'string' || identifier === '') return this.#failed('invalid', request);
    const user = await (this.#userProvider?.loadUser(identifier, verified.payload) ?? this.#claimsUser(identifier, verified.payload));
    if (user === null) return this.#failed('invalid', request);
    return { kind: 'authenticated', user, expiresAt: new Date((verified.payload.exp as number) * 1000) };
  }

  start(): Response {
    return jwtFailureResponse('not_found', this.#failureFormat);
  }

  #claimsUser(identifier: string, claims: TokenClaims): SecurityUser {
    const listed = this.#rolesClaim === undefined ? undefined : claims[this.#rolesClaim];
    const roles = Array.isArray(listed) ? listed.filter((role): role is string => typeof role === 'string') : [];
    return { identifier, roles: [...new Set([...roles, ...scopeRoles(claims)])] };
  }

  #failed(refusal: Exclude<Refusal, 'other'>, request: Request): AuthenticationOutcome {
    if (refusal === 'unavailable') {
      const issuer = this.#issuers.get(request.attributes.get('_security_token')?.issuer ?? '');
      const response = keySetUnavailableResponse(issuer?.keys.retryAfter ?? 30, this.#failureFormat);
      return { kind: 'failed', reason: KEY_SET_UNAVAILABLE_MESSAGE, response };
    }
    return { kind: 'failed', reason: JWT_FAILURE_MESSAGES[refusal], response: jwtFailureResponse(refusal, this.#failureFormat) };
  }

  async #verify(token: string, request: Request): Promise<{ payload: JWTPayload } | Refusal> {
    if (token.length > this.#maxTokenLength) return 'invalid';
    let alg: unknown;
    let kid: unknown;
    let iss: unknown;
    try {
      ({ alg, kid } = decodeProtectedHeader(token));
      ({ iss } = decodeJwt(token));
    } catch {
      return 'other';
    }
    // The unverified `iss` only chooses whose keys to use; jose checks it again once the signature holds.
    const issuer = typeof iss === 'string' ? this.#issuers.get(iss) : undefined;
    if (issuer === undefined) return 'other';
    if (typeof alg !== 'string' || !issuer.algorithms.includes(alg as JwsAlgorithm)) return 'invalid';
    if (kid !== undefined && typeof kid !== 'string') return 'invalid';
    const record = { authenticator: this.name, issuer: issuer.keys.issuer, kid: kid ?? null };
    let key: KeyObject | null;
    try {
      key = await issuer.keys.keyFor(kid, alg as JwsAlgorithm);
    } catch (error) {
      if (!(error instanceof KeySetUnavailableError)) throw error;
      return 'unavailable';
    } finally {
      // For the profiler's security panel: which issuer and key, and the key set's state then.
      request.attributes.set('_security_token', { ...record, keySet: issuer.keys.keySetState });
    }
    if (key === null) return 'invalid';
    const currentDate = this.#now();
    try {
      const { payload } = await jwtVerify(token, key, {
        algorithms: [alg],
        issuer: issuer.keys.issuer,
        audience: issuer.audience,
        requiredClaims: ['exp'],
        clockTolerance: this.#clockSkew,
        currentDate,
        ...(issuer.typ === undefined ? {} : { typ: issuer.typ }),
      });
      // jose only bounds `iat` with maxTokenAge; a token issued in the future is as wrong as one not yet valid.
      if (typeof payload.iat === 'number' && payload.iat > currentDate.getTime() / 1000 + this.#clockSkew) return 'invalid';
      if (issuer.authorizedParties !== null && !(typeof payload['azp'] === 'string' && issuer.authorizedParties.includes(payload['azp']))) {
        return 'invalid';
      }
      return { payload };
    } catch (error) {
      return error instanceof errors.JWTExpired ? 'expired' : 'invalid';
    }
  }
}
