import { Request } from '@switchboard/http-kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_INTROSPECTION_CLIENT, TestIdentityProvider } from '../../../test/kit/identity-provider.js';
import { IntrospectionAuthenticator, type IntrospectionAuthenticatorOptions } from '../src/index.js';

let idp: TestIdentityProvider;

beforeAll(async () => {
  idp = await TestIdentityProvider.start({ algorithm: 'ES256' });
});
afterAll(async () => {
  await idp.stop().catch(() => undefined);
});

function subject(options: Partial<IntrospectionAuthenticatorOptions> = {}): IntrospectionAuthenticator {
  return new IntrospectionAuthenticator({
    endpoint: idp.introspectionEndpoint,
    clientId: TEST_INTROSPECTION_CLIENT.id,
    clientSecret: TEST_INTROSPECTION_CLIENT.secret,
    ...options,
  });
}

function asRequest(token: string): Request {
  return Request.fromUrl('http://localhost/api/me', { headers: { authorization: `Bearer ${token}` } });
}

describe('IntrospectionAuthenticator (RFC 7662)', () => {
  it('an active opaque token is its `sub` with scopes as roles; the answer is cached', async () => {
    const authenticator = subject();
    const token = idp.issueOpaqueToken({ identifier: 'robot', scopes: ['items:write'] });
    const before = idp.requests.introspection;
    for (let index = 0; index < 3; index += 1) {
      expect(await authenticator.authenticate(asRequest(token))).toMatchObject({
        kind: 'authenticated',
        user: { identifier: 'robot', roles: ['SCOPE_items:write'] },
      });
    }
    expect(idp.requests.introspection).toBe(before + 1);
  });

  it('concurrent requests with one token share one call', async () => {
    const authenticator = subject();
    const token = idp.issueOpaqueToken({ identifier: 'robot' });
    const before = idp.requests.introspection;
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => authenticator.authenticate(asRequest(token))));
    expect(new Set(outcomes.map((outcome) => outcome.kind))).toEqual(new Set(['authenticated']));
    expect(idp.requests.introspection).toBe(before + 1);
  });

  it('inactive, revoked, expired, wrong audience or issuer → 401 invalid_token', async () => {
    let time = Date.now();
    const authenticator = subject({ audience: 'switchboard-api', issuer: idp.issuer, cacheTtl: 60, now: () => new Date(time) });
    const refused = async (token: string) => {
      const outcome = await authenticator.authenticate(asRequest(token));
      return outcome.kind === 'failed' ? [outcome.response.status, outcome.response.headers.get('www-authenticate')] : outcome.kind;
    };
    const invalid = [401, 'Bearer error="invalid_token", error_description="Invalid JWT Token"'];
    expect(await refused('made-up-token')).toEqual(invalid);
    expect(await refused(idp.issueOpaqueToken({ identifier: 'a' }, { aud: 'another-api' }))).toEqual(invalid);
    expect(await refused(idp.issueOpaqueToken({ identifier: 'a' }, { iss: 'https://elsewhere.test' }))).toEqual(invalid);
    expect(await refused(idp.issueOpaqueToken({ identifier: 'a' }, { exp: Math.floor(time / 1000) - 1 }))).toEqual(invalid);
    // Revoked: seen once the cached answer runs out.
    const token = idp.issueOpaqueToken({ identifier: 'a' });
    expect(await refused(token)).toBe('authenticated');
    idp.revoke(token);
    expect(await refused(token)).toBe('authenticated');
    time += 61_000;
    expect(await refused(token)).toEqual(invalid);
  });

  it('the cache is bounded: past cacheSize the oldest answers go', async () => {
    const authenticator = subject({ cacheSize: 5 });
    for (let index = 0; index < 12; index += 1) await authenticator.authenticate(asRequest(`made-up-${index}`));
    expect(authenticator.cachedAnswers).toBe(5);
    const before = idp.requests.introspection;
    await authenticator.authenticate(asRequest('made-up-0'));
    expect(idp.requests.introspection).toBe(before + 1);
  });

  it('wrong client credentials or an endpoint that does not answer → 503, not cached; no token → absent', async () => {
    const token = idp.issueOpaqueToken({ identifier: 'a' });
    const wrongClient = subject({ clientSecret: 'not-the-secret' });
    expect(await wrongClient.authenticate(asRequest(token))).toMatchObject({ kind: 'failed', reason: 'Token introspection unavailable' });
    expect(wrongClient.cachedAnswers).toBe(0);
    expect(await subject().authenticate(Request.fromUrl('http://localhost/api/me'))).toEqual({ kind: 'absent' });
    const down = await TestIdentityProvider.start({ algorithm: 'ES256' });
    await down.stop();
    const unreachable = new IntrospectionAuthenticator({ endpoint: down.introspectionEndpoint, clientId: 'x', clientSecret: 'y' });
    const outcome = await unreachable.authenticate(asRequest(token));
    expect(outcome).toMatchObject({ kind: 'failed', response: { status: 503 } });
    expect(
      () => new IntrospectionAuthenticator({ endpoint: 'http://idp.example.test/introspect', clientId: 'x', clientSecret: 'y' }),
    ).toThrow('must use https');
  });
});
