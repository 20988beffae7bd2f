import { Request } from '@switchboard/http-kernel';
import { SignJWT, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestIdentityProvider } from '../../../test/kit/identity-provider.js';
import {
  OidcAuthenticator,
  RemoteKeySet,
  scopeRoles,
  type JwsAlgorithm,
  type OidcAuthenticatorOptions,
  type OidcIssuerOptions,
} from '../src/index.js';

/** One rule per test: each token differs from a valid one in the claim the rule is about. */
const AUDIENCE = 'switchboard-api';
const SKEW = 30;
let idp: TestIdentityProvider;
let other: TestIdentityProvider;
let now: number;

beforeAll(async () => {
  [idp, other] = await Promise.all([TestIdentityProvider.start(), TestIdentityProvider.start()]);
  now = Math.floor(Date.now() / 1000);
});
afterAll(async () => {
  await Promise.all([idp.stop(), other.stop()]);
});

function authenticator(issuer: Partial<OidcIssuerOptions> = {}, options: Partial<OidcAuthenticatorOptions> = {}): OidcAuthenticator {
  return new OidcAuthenticator({
    issuers: [{ issuer: idp.issuer, jwksUri: idp.jwksUri, audience: AUDIENCE, ...issuer }],
    clockSkew: SKEW,
    ...options,
  });
}

function asRequest(token: string): Request {
  return Request.fromUrl('http://localhost/api/me', { headers: { authorization: `Bearer ${token}` } });
}

/** A valid token's claims with `changes` applied (`undefined` removes a claim). */
function claims(changes: Record<string, unknown> = {}): JWTPayload {
  const base: Record<string, unknown> = { iss: idp.issuer, sub: 'ada', aud: AUDIENCE, scope: 'items:write', iat: now, exp: now + 300 };
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) delete base[name];
    else base[name] = value;
  }
  return base;
}

async function outcomeOf(subject: OidcAuthenticator, token: string): Promise<string> {
  const outcome = await subject.authenticate(asRequest(token));
  return outcome.kind === 'failed' ? outcome.reason : outcome.kind;
}

describe('OidcAuthenticator claim rules', () => {
  it('accepts a valid token: `sub` is the user, scopes are SCOPE_ roles, `exp` is when it stops', async () => {
    const request = asRequest(await idp.sign(claims({ scope: 'items:write items:admin' })));
    expect(await authenticator().authenticate(request)).toEqual({
      kind: 'authenticated',
      user: { identifier: 'ada', roles: ['SCOPE_items:write', 'SCOPE_items:admin'] },
      expiresAt: new Date((now + 300) * 1000),
    });
    expect(request.attributes.get('_security_token')).toMatchObject({ authenticator: 'oidc', issuer: idp.issuer, kid: idp.kid });
  });

  it('aud: refused unless one of the configured audiences is in it', async () => {
    const subject = authenticator();
    expect(await outcomeOf(subject, await idp.sign(claims({ aud: 'another-api' })))).toBe('Invalid JWT Token');
    expect(await outcomeOf(subject, await idp.sign(claims({ aud: undefined })))).toBe('Invalid JWT Token');
    expect(await outcomeOf(subject, await idp.sign(claims({ aud: ['another-api', AUDIENCE] })))).toBe('authenticated');
  });

  it('azp: when configured, must be present and one of the authorised parties', async () => {
    const subject = authenticator({ authorizedParties: ['web-app'] });
    expect(await outcomeOf(subject, await idp.sign(claims()))).toBe('Invalid JWT Token');
    expect(await outcomeOf(subject, await idp.sign(claims({ azp: 'other-app' })))).toBe('Invalid JWT Token');
    expect(await outcomeOf(subject, await idp.sign(claims({ azp: 'web-app' })))).toBe('authenticated');
    expect(await outcomeOf(authenticator(), await idp.sign(claims({ azp: 'other-app' })))).toBe('authenticated');
  });

  it('iss: must be a configured issuer exactly; the key set is not even fetched otherwise', async () => {
    const subject = authenticator();
    const before = idp.requests.jwks;
    expect(await outcomeOf(subject, await idp.sign(claims({ iss: `${idp.issuer}/` })))).toBe('Invalid JWT Token');
    expect(await outcomeOf(subject, await idp.sign(claims({ iss: undefined })))).toBe('Invalid JWT Token');
    expect(await outcomeOf(subject, await idp.sign(claims({ iss: 42 })))).toBe('Invalid JWT Token');
    expect(idp.requests.jwks).toBe(before);
  });

  it('exp: required; past it beyond the skew is Expired, within the skew still good', async () => {
    const subject = authenticator();
    expect(await outcomeOf(subject, await idp.sign(claims({ exp: undefined })))).toBe('Invalid JWT Token');
    expect(await outcomeOf(subject, await idp.sign(claims({ exp: now - SKEW - 5 })))).toBe('Expired JWT Token');
    expect(await outcomeOf(subject, await idp.sign(claims({ exp: now - SKEW + 20 })))).toBe('authenticated');
  });

  it('nbf: in the future beyond the skew is refused, within the skew accepted', async () => {
    const subject = authenticator();
    expect(await outcomeOf(subject, await idp.sign(claims({ nbf: now + SKEW + 20 })))).toBe('Invalid JWT Token');
    expect(await outcomeOf(subject, await idp.sign(claims({ nbf: now + SKEW - 20 })))).toBe('authenticated');
  });

  it('iat: in the future beyond the skew is refused, within the skew accepted, not a number refused', async () => {
    const subject = authenticator();
    expect(await outcomeOf(subject, await idp.sign(claims({ iat: now + SKEW + 20 })))).toBe('Invalid JWT Token');
    expect(await outcomeOf(subject, await idp.sign(claims({ iat: now + SKEW - 20 })))).toBe('authenticated');
    expect(await outcomeOf(subject, await idp.sign(claims({ iat: 'yesterday' })))).toBe('Invalid JWT Token');
  });

  it('the clock skew is configurable (0: no tolerance)', async () => {
    expect(await outcomeOf(authenticator({}, { clockSkew: 0 }), await idp.sign(claims({ exp: now - 5 })))).toBe('Expired JWT Token');
  });

  it('typ: with requireAccessTokenType only RFC 9068 access tokens (`at+jwt`, `application/at+jwt`) pass', async () => {
    const subject = authenticator({ requireAccessTokenType: true });
    expect(await outcomeOf(subject, await idp.sign(claims(), { typ: 'JWT' }))).toBe('Invalid JWT Token');
    expect(await outcomeOf(subject, await idp.sign(claims(), { typ: 'at+jwt' }))).toBe('authenticated');
    expect(await outcomeOf(subject, await idp.sign(claims(), { typ: 'application/at+jwt' }))).toBe('authenticated');
    expect(await outcomeOf(authenticator(), await idp.sign(claims(), { typ: 'JWT' }))).toBe('authenticated');
  });

  it('sub: required (the user), or the configured claim', async () => {
    expect(await outcomeOf(authenticator(), await idp.sign(claims({ sub: undefined })))).toBe('Invalid JWT Token');
    expect(await outcomeOf(authenticator({}, { userIdClaim: 'email' }), await idp.sign(claims({ email: 'ada@example.test' })))).toBe(
      'authenticated',
    );
  });

  it('alg: outside the allow-list refused before any fetch; inside it, must fit the key', async () => {
    const before = idp.requests.jwks;
    const rsOnly = authenticator();
    // A PS256 signature by the same RSA key: a fine key for PS256, but not allowed.
    expect(await outcomeOf(rsOnly, await idp.sign(claims(), { alg: 'PS256' }))).toBe('Invalid JWT Token');
    expect(idp.requests.jwks).toBe(before);
    expect(await outcomeOf(authenticator({ algorithms: ['RS256', 'PS256'] }), await idp.sign(claims(), { alg: 'PS256' }))).toBe(
      'Invalid JWT Token', // the published JWK says `alg: RS256`: the key serves that alone
    );
    expect(() => authenticator({ algorithms: ['HS256' as JwsAlgorithm] })).toThrow('JWT algorithm "HS256" is not supported');
    expect(() => authenticator({ algorithms: [] })).toThrow('allow-list');
  });

  it('HMAC is never accepted: HS256 with the public key as secret is refused, even when allowed by mistake', async () => {
    const secret = new TextEncoder().encode(JSON.stringify(idp.publicJwk));
    const forged = await new SignJWT(claims()).setProtectedHeader({ alg: 'HS256', kid: idp.kid }).sign(secret);
    expect(await outcomeOf(authenticator(), forged)).toBe('Invalid JWT Token');
    // A symmetric key published in the set is left out of it: its `kid` is unknown.
    const shared = await TestIdentityProvider.start();
    try {
      shared.publish({ kty: 'oct', kid: 'shared', k: Buffer.from('a shared secret of 32 bytes long!').toString('base64url') });
      const viaSet = await new SignJWT(claims({ iss: shared.issuer }))
        .setProtectedHeader({ alg: 'HS256', kid: 'shared' })
        .sign(Buffer.from('a shared secret of 32 bytes long!'));
      const subject = new OidcAuthenticator({ issuers: [{ issuer: shared.issuer, jwksUri: shared.jwksUri, audience: AUDIENCE }] });
      expect(await outcomeOf(subject, viaSet)).toBe('Invalid JWT Token');
      expect(shared.requests.jwks).toBe(0); // HS256 is outside every allow-list: refused before any fetch
      const keySet = new RemoteKeySet(shared.jwksUri);
      expect(await keySet.ready()).toBe(true);
      expect(keySet.state.kids).toEqual([shared.kid]);
      expect(await keySet.keyFor('shared', 'HS256' as JwsAlgorithm)).toBeNull();
    } finally {
      await shared.stop();
    }
  });

  it('kid: the token names its key; a missing kid takes the only key, an unknown one is refused', async () => {
    const subject = authenticator();
    expect(await outcomeOf(subject, await idp.sign(claims(), { kid: 'unknown-key' }))).toBe('Invalid JWT Token');
    expect(await outcomeOf(subject, await idp.sign(claims(), { kid: undefined }))).toBe('authenticated');
  });

  it('several issuers: a token claiming issuer B signed by issuer A is refused', async () => {
    const both = new OidcAuthenticator({
      issuers: [
        { issuer: idp.issuer, jwksUri: idp.jwksUri, audience: AUDIENCE },
        { issuer: other.issuer, jwksUri: other.jwksUri, audience: AUDIENCE },
      ],
    });
    expect(await outcomeOf(both, await idp.sign(claims()))).toBe('authenticated');
    expect(await outcomeOf(both, await other.issueToken({ identifier: 'bo' }))).toBe('authenticated');
    // A's key, A's kid, B's `iss`: B's set has no such kid.
    expect(await outcomeOf(both, await idp.sign(claims({ iss: other.issuer })))).toBe('Invalid JWT Token');
    // B's kid on a token A signed: B's key does not verify it.
    expect(await outcomeOf(both, await idp.sign(claims({ iss: other.issuer }), { kid: other.kid }))).toBe('Invalid JWT Token');
  });

  it('passOtherIssuers: a token of another issuer, or no JWT at all, is left to the next authenticator', async () => {
    const beside = authenticator({}, { passOtherIssuers: true });
    expect(await outcomeOf(beside, await other.issueToken({ identifier: 'bo' }))).toBe('absent');
    expect(await outcomeOf(beside, 'not.a.token')).toBe('absent');
    expect(await outcomeOf(beside, await idp.sign(claims({ aud: 'another-api' })))).toBe('Invalid JWT Token');
    expect(await outcomeOf(authenticator(), await other.issueToken({ identifier: 'bo' }))).toBe('Invalid JWT Token');
  });

  it('scope and scp become SCOPE_ roles; malformed scope tokens are left out; rolesClaim adds roles', async () => {
    expect(scopeRoles({ scope: 'items:write  openid' })).toEqual(['SCOPE_items:write', 'SCOPE_openid']);
    expect(scopeRoles({ scp: ['items:admin', 'bad"scope', 7] })).toEqual(['SCOPE_items:admin']);
    expect(scopeRoles({ scp: 'a b', scope: 'b c' })).toEqual(['SCOPE_b', 'SCOPE_c', 'SCOPE_a']);
    expect(scopeRoles({ scope: 42 })).toEqual([]);
    const outcome = await authenticator({}, { rolesClaim: 'roles' }).authenticate(
      asRequest(await idp.sign(claims({ roles: ['ROLE_USER'] }))),
    );
    expect(outcome).toMatchObject({ kind: 'authenticated', user: { roles: ['ROLE_USER', 'SCOPE_items:write'] } });
  });

  it('failures are RFC 6750 invalid_token 401s with nothing from the token', async () => {
    const outcome = await authenticator().authenticate(asRequest(await idp.sign(claims({ aud: 'nope' }))));
    expect(outcome.kind).toBe('failed');
    const response = (outcome as { response: { status: number; headers: { get(name: string): string | null }; body: unknown } }).response;
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token", error_description="Invalid JWT Token"');
    expect(await outcomeOf(authenticator(), 'not.a.token')).toBe('Invalid JWT Token');
    expect(await outcomeOf(authenticator({}, { maxTokenLength: 10 }), await idp.sign(claims()))).toBe('Invalid JWT Token');
  });
});
