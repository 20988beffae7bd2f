import { generateKeyPairSync, randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { calculateJwkThumbprint, exportJWK, SignJWT, type JWK, type JWTPayload } from 'jose';
import type { TokenIssuer } from '../test-client.js';

/** Whom a test token is for: `sub`, and the scopes it grants. */
export interface TestTokenSubject {
  readonly identifier: string;
  readonly scopes?: readonly string[];
}

export interface TestIdentityProviderOptions {
  /** `RS256` (default), `PS256`, `ES256` or `EdDSA`. */
  algorithm?: 'RS256' | 'PS256' | 'ES256' | 'EdDSA';
  /** The `aud` of issued tokens. Default `switchboard-api`. */
  audience?: string;
  /** Lifetime of issued tokens, in seconds. Default 300. */
  ttl?: number;
  /** The JWKS answer's `Cache-Control`; change it with `cacheControl` later. Default `max-age=600`. */
  cacheControl?: string;
}

/** Requests the stand-in has answered, by document. */
export interface IdentityProviderRequests {
  discovery: number;
  jwks: number;
  introspection: number;
}

/** The client the stand-in's introspection endpoint accepts (HTTP Basic). */
export const TEST_INTROSPECTION_CLIENT = { id: 'switchboard-api', secret: 'introspection-secret-for-tests' } as const;

interface SigningKey {
  readonly kid: string;
  readonly privateKey: KeyObject;
  readonly jwk: JWK;
}

/**
 * A stand-in OpenID Connect provider for tests, listening on 127.0.0.1: it serves its discovery
 * document, JWKS and an RFC 7662 introspection endpoint for its opaque tokens (counting requests), signs access tokens (`issueToken`, so `client.loginAs`
 * takes it), rotates its key and stops. Keys are made at start, in memory only.
 */
export class TestIdentityProvider implements TokenIssuer<TestTokenSubject> {
  /** The answer's `Cache-Control` for the next JWKS request. */
  cacheControl: string;
  readonly requests: IdentityProviderRequests = { discovery: 0, jwks: 0, introspection: 0 };
  readonly #server: Server;
  readonly #options: TestIdentityProviderOptions;
  /** Published keys, the signing one first. */
  #keys: SigningKey[];
  /** Further JWKs published as given (a test's hostile or odd keys). */
  #extra: JWK[] = [];
  /** Opaque tokens and what introspection says of each while it is active. */
  readonly #opaque = new Map<string, Record<string, unknown>>();
  #issuer = '';

  private constructor(server: Server, key: SigningKey, options: TestIdentityProviderOptions) {
    this.#server = server;
    this.#keys = [key];
    this.#options = options;
    this.cacheControl = options.cacheControl ?? 'max-age=600';
  }

  /** Starts a provider on a free port of 127.0.0.1. */
  static async start(options: TestIdentityProviderOptions = {}): Promise<TestIdentityProvider> {
    const server = createServer();
    const provider = new TestIdentityProvider(server, await newKey(options.algorithm ?? 'RS256'), options);
    server.on('request', (request, response) => {
      const path = new URL(request.url ?? '/', provider.issuer).pathname;
      if (path === '/introspect' && request.method === 'POST') {
        provider.requests.introspection += 1;
        provider.#introspect(request, response);
        return;
      }
      let body: unknown;
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (path === '/.well-known/openid-configuration') {
        provider.requests.discovery += 1;
        body = {
          issuer: provider.issuer,
          jwks_uri: provider.jwksUri,
          introspection_endpoint: provider.introspectionEndpoint,
          id_token_signing_alg_values_supported: [provider.algorithm],
        };
      } else if (path === '/jwks') {
        provider.requests.jwks += 1;
        body = { keys: [...provider.#keys.map((key) => key.jwk), ...provider.#extra] };
        headers['cache-control'] = provider.cacheControl;
      }
      response.writeHead(body === undefined ? 404 : 200, headers).end(JSON.stringify(body ?? { error: 'not_found' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    provider.#issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return provider;
  }

  /** The `iss` of its tokens, also the base of its discovery document. */
  get issuer(): string {
    return this.#issuer;
  }

  get jwksUri(): string {
    return `${this.#issuer}/jwks`;
  }

  /** The RFC 7662 endpoint: POST `token=…` with `TEST_INTROSPECTION_CLIENT` as HTTP Basic credentials. */
  get introspectionEndpoint(): string {
    return `${this.#issuer}/introspect`;
  }

  get algorithm(): string {
    return this.#options.algorithm ?? 'RS256';
  }

  /** The `kid` of the signing key. */
  get kid(): string {
    return this.#keys[0]!.kid;
  }

  /** The signing key's public JWK, as published. */
  get publicJwk(): JWK {
    return this.#keys[0]!.jwk;
  }

  /**
   * Signs with a new key from now on and publishes it; the previous key stays published when
   * `keepPrevious` (a provider's usual overlap), or is dropped at once.
   */
  async rotate(keepPrevious = true): Promise<void> {
    const key = await newKey(this.algorithm);
    this.#keys = keepPrevious ? [key, ...this.#keys] : [key];
  }

  /** Adds `jwk` to the published set as it is (a symmetric key, a key of another use…). */
  publish(jwk: JWK): void {
    this.#extra.push(jwk);
  }

  /**
   * An RFC 9068 access token (`typ: at+jwt`) for `subject`: `iss`, `sub`, `aud`, `scope`,
   * `client_id`, `iat`, `exp`, `jti`. `claims` add to or override them (`{ aud: 'other' }`).
   */
  issueToken(subject: TestTokenSubject, claims: JWTPayload = {}): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return this.sign({
      iss: this.issuer,
      sub: subject.identifier,
      aud: this.#options.audience ?? 'switchboard-api',
      client_id: 'switchboard-tests',
      scope: (subject.scopes ?? []).join(' '),
      iat: now,
      exp: now + (this.#options.ttl ?? 300),
      jti: randomUUID(),
      ...claims,
    });
  }

  /** Signs `payload` as is with the signing key; `header` adds to or overrides `alg`, `kid`, `typ`. */
  sign(payload: JWTPayload, header: { alg?: string; kid?: string | undefined; typ?: string } = {}): Promise<string> {
    const key = this.#keys[0]!;
    return new SignJWT(payload).setProtectedHeader({ alg: this.algorithm, kid: key.kid, typ: 'at+jwt', ...header }).sign(key.privateKey);
  }

  /**
   * An opaque access token (random, no structure) that the introspection endpoint reports active
   * with `sub`, `scope`, `client_id`, `iss`, `exp` (and `claims`) until `revoke`.
   */
  issueOpaqueToken(subject: TestTokenSubject, claims: Record<string, unknown> = {}): string {
    const token = randomBytes(24).toString('base64url');
    const exp = Math.floor(Date.now() / 1000) + (this.#options.ttl ?? 300);
    this.#opaque.set(token, {
      active: true,
      sub: subject.identifier,
      scope: (subject.scopes ?? []).join(' '),
      client_id: 'switchboard-tests',
      token_type: 'Bearer',
      iss: this.issuer,
      aud: this.#options.audience ?? 'switchboard-api',
      exp,
      ...claims,
    });
    return token;
  }

  /** Introspection reports `token` inactive from now on. */
  revoke(token: string): void {
    this.#opaque.delete(token);
  }

  #introspect(request: IncomingMessage, response: ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const expected = `Basic ${Buffer.from(`${TEST_INTROSPECTION_CLIENT.id}:${TEST_INTROSPECTION_CLIENT.secret}`).toString('base64')}`;
      if (request.headers.authorization !== expected) {
        response.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"invalid_client"}');
        return;
      }
      const token = new URLSearchParams(Buffer.concat(chunks).toString('utf8')).get('token') ?? '';
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(this.#opaque.get(token) ?? { active: false }));
    });
  }

  /** Stops answering: its port refuses connections from now on. */
  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

async function newKey(algorithm: string): Promise<SigningKey> {
  const pair =
    algorithm === 'ES256'
      ? generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
      : algorithm === 'EdDSA'
        ? generateKeyPairSync('ed25519')
        : generateKeyPairSync('rsa', { modulusLength: 2048 });
  const publicJwk = await exportJWK(pair.publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  return { kid, privateKey: pair.privateKey, jwk: { ...publicJwk, kid, alg: algorithm, use: 'sig' } };
}
