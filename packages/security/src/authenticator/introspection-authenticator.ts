import { createHash } from 'node:crypto';
import { JsonResponse, type Request, type Response } from '@switchboard/http-kernel';
import { assertFetchableUrl } from '../oidc/fetch-json.js';
import { scopeRoles } from '../oidc/scope-roles.js';
import type { SecurityUser } from '../user/security-user.js';
import type { AuthenticationOutcome, Authenticator } from './authenticator.js';
import { extractBearerToken } from './bearer-token-extractor.js';
import { JWT_FAILURE_MESSAGES, jwtFailureResponse, type JwtFailureFormat } from './jwt-failure-response.js';

export interface IntrospectionAuthenticatorOptions {
  /** The provider's RFC 7662 endpoint (https; http on loopback only). */
  endpoint: string;
  /** This API's client credentials at the provider, sent as HTTP Basic. */
  clientId: string;
  clientSecret: string;
  /** When set, an active token's `aud` must contain one of these. */
  audience?: string | readonly string[];
  /** When set, an active token's `iss` must be this. */
  issuer?: string;
  /**
   * Seconds an answer is reused (never past the token's `exp`); an inactive answer too, so a
   * flood of made-up tokens costs one request each and no more. Default 60; 0 keeps nothing.
   */
  cacheTtl?: number;
  /** Answers kept at most; the oldest go first. Default 10 000. */
  cacheSize?: number;
  /** Milliseconds the endpoint may take. Default 5000. */
  timeout?: number;
  /** Longer tokens are refused without asking. Default 4096 characters. */
  maxTokenLength?: number;
  /** The 401 body, as `JwtAuthenticator`'s. Default `'code-message'`. */
  failureFormat?: JwtFailureFormat;
  now?: () => Date;
}

/** What the cache keeps of an answer: the user, or `null` for an inactive token. */
interface CachedAnswer {
  readonly user: SecurityUser | null;
  readonly expiresAt: Date | undefined;
  readonly until: number;
}

export const INTROSPECTION_UNAVAILABLE_MESSAGE = 'Token introspection unavailable';

/**
 * Authenticates opaque bearer tokens by asking the provider (RFC 7662): `active: true` → the user
 * is `sub` (or `username`) with its scopes as `SCOPE_` roles. Answers are cached by the token's
 * SHA-256 (the token itself is never kept), bounded in count and time, and concurrent requests
 * with one token share one call. An inactive token is a 401 `invalid_token`; an endpoint that
 * cannot answer is a 503.
 */
export class IntrospectionAuthenticator implements Authenticator {
  readonly name = 'introspection';
  readonly #options: IntrospectionAuthenticatorOptions;
  readonly #authorization: string;
  readonly #audience: readonly string[] | null;
  readonly #cacheTtl: number;
  readonly #cacheSize: number;
  readonly #now: () => Date;
  readonly #cache = new Map<string, CachedAnswer>();
  readonly #inFlight = new Map<string, Promise<CachedAnswer | null>>();

  constructor(options: IntrospectionAuthenticatorOptions) {
    assertFetchableUrl(options.endpoint, 'introspection endpoint');
    this.#options = options;
    // RFC 6749 §2.3.1: each part form-encoded before Basic encoding.
    const basic = `${encodeURIComponent(options.clientId)}:${encodeURIComponent(options.clientSecret)}`;
    this.#authorization = `Basic ${Buffer.from(basic).toString('base64')}`;
    this.#audience = options.audience === undefined ? null : [options.audience].flat();
    this.#cacheTtl = (options.cacheTtl ?? 60) * 1000;
    this.#cacheSize = options.cacheSize ?? 10_000;
    if (!(this.#cacheTtl >= 0) || !(this.#cacheSize >= 0)) throw new RangeError('cacheTtl and cacheSize must be ≥ 0.');
    this.#now = options.now ?? (() => new Date());
  }

  /** Answers cached now: what a status page or a test can read. */
  get cachedAnswers(): number {
    return this.#cache.size;
  }

  async authenticate(request: Request): Promise<AuthenticationOutcome> {
    const token = extractBearerToken(request);
    if (token === null) return { kind: 'absent' };
    if (token.length > (this.#options.maxTokenLength ?? 4096)) return this.#invalid();
    const key = createHash('sha256').update(token).digest('base64url');
    const answer = this.#cached(key) ?? (await this.#shared(key, token));
    if (answer === null) {
      const problem = { code: 503, message: INTROSPECTION_UNAVAILABLE_MESSAGE };
      return {
        kind: 'failed',
        reason: INTROSPECTION_UNAVAILABLE_MESSAGE,
        response: new JsonResponse(problem, 503, { 'cache-control': 'no-store' }),
      };
    }
    if (answer.user === null) return this.#invalid();
    return { kind: 'authenticated', user: answer.user, ...(answer.expiresAt === undefined ? {} : { expiresAt: answer.expiresAt }) };
  }

  start(): Response {
    return jwtFailureResponse('not_found', this.#options.failureFormat);
  }

  #invalid(): AuthenticationOutcome {
    return { kind: 'failed', reason: JWT_FAILURE_MESSAGES.invalid, response: jwtFailureResponse('invalid', this.#options.failureFormat) };
  }

  #cached(key: string): CachedAnswer | undefined {
    const answer = this.#cache.get(key);
    if (answer === undefined) return undefined;
    if (answer.until > this.#now().getTime()) return answer;
    this.#cache.delete(key);
    return undefined;
  }

  /** One call per token at a time; `null` when the endpoint could not answer (not cached). */
  #shared(key: string, token: string): Promise<CachedAnswer | null> {
    let call = this.#inFlight.get(key);
    if (call === undefined) {
      call = this.#introspect(token)
        .then((answer) => {
          if (answer !== null) this.#remember(key, answer);
          return answer;
        })
        .finally(() => this.#inFlight.delete(key));
      this.#inFlight.set(key, call);
    }
    return call;
  }

  #remember(key: string, answer: CachedAnswer): void {
    if (this.#cacheSize === 0 || answer.until <= this.#now().getTime()) return;
    if (this.#cache.size >= this.#cacheSize) this.#cache.delete(this.#cache.keys().next().value!);
    this.#cache.set(key, answer);
  }

  async #introspect(token: string): Promise<CachedAnswer | null> {
    let body: unknown;
    try {
      const response = await fetch(this.#options.endpoint, {
        method: 'POST',
        headers: { authorization: this.#authorization, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
        redirect: 'error',
        signal: AbortSignal.timeout(this.#options.timeout ?? 5000),
      });
      if (response.status !== 200) {
        await response.body?.cancel();
        return null;
      }
      body = await response.json();
    } catch {
      return null;
    }
    return this.#answerOf(body);
  }

  #answerOf(body: unknown): CachedAnswer {
    const now = this.#now().getTime();
    const inactive = { user: null, expiresAt: undefined, until: now + this.#cacheTtl };
    if (typeof body !== 'object' || body === null) return inactive;
    const claims = body as Record<string, unknown>;
    if (claims['active'] !== true) return inactive;
    const exp = typeof claims['exp'] === 'number' ? claims['exp'] * 1000 : undefined;
    if (exp !== undefined && exp <= now) return inactive;
    if (this.#options.issuer !== undefined && claims['iss'] !== this.#options.issuer) return inactive;
    if (this.#audience !== null) {
      const aud = [claims['aud']].flat();
      if (!aud.some((value) => typeof value === 'string' && this.#audience!.includes(value))) return inactive;
    }
    const identifier = typeof claims['sub'] === 'string' ? claims['sub'] : claims['username'];
    if (typeof identifier !== 'string' || identifier === '') return inactive;
    return {
      user: { identifier, roles: scopeRoles(claims) },
      expiresAt: exp === undefined ? undefined : new Date(exp),
      until: Math.min(now + this.#cacheTtl, exp ?? Number.POSITIVE_INFINITY),
    };
  }
}
