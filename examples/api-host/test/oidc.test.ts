import { createHmac, randomUUID } from 'node:crypto';
import { createTestClient, TestIdentityProvider } from '@switchboard/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHostInProcess, type StartedHost } from './support/start-host.js';

const AUDIENCE = 'switchboard-api';
const INVALID_TOKEN = 'Bearer error="invalid_token", error_description="Invalid JWT Token"';

/** The host with OIDC_ISSUER naming two stand-in providers, over a real socket. */
let host: StartedHost;
let idpA: TestIdentityProvider;
let idpB: TestIdentityProvider;

beforeAll(async () => {
  // B signs ES256: the flood below signs a thousand tokens, which RSA would make slow on a busy machine.
  [idpA, idpB] = await Promise.all([TestIdentityProvider.start(), TestIdentityProvider.start({ algorithm: 'ES256' })]);
  host = await startHostInProcess({ OIDC_ISSUER: `${idpA.issuer},${idpB.issuer}`, OIDC_AUDIENCE: AUDIENCE });
});

afterAll(async () => {
  await host?.stop();
  await Promise.all([idpA?.stop(), idpB?.stop()].map((stopping) => stopping?.catch(() => undefined)));
});

async function call(method: string, path: string, token: string, body?: unknown): Promise<Response> {
  return fetch(`${host.running.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function expectInvalidToken(response: Response): Promise<void> {
  expect([response.status, response.headers.get('www-authenticate')]).toEqual([401, INVALID_TOKEN]);
  await response.arrayBuffer();
}

describe('the example host with OIDC_ISSUER (stand-in providers on 127.0.0.1)', () => {
  it("accepts a provider's token: 200 on /api/me with its scopes as roles, after one discovery and one JWKS fetch", async () => {
    const response = await call('GET', '/api/me', await idpA.issueToken({ identifier: 'ada', scopes: ['items:write', 'openid'] }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ username: 'ada', roles: ['SCOPE_items:write', 'SCOPE_openid'] });
    expect(idpA.requests).toEqual({ discovery: 1, jwks: 1, introspection: 0 });
  });

  it('the test client logs in with a token the stand-in mints', async () => {
    const client = await createTestClient(host.app.kernel).loginAs({ identifier: 'cy', scopes: ['items:admin'] }, idpA);
    const response = await client.get('/api/me');
    expect([response.status, response.json()]).toEqual([200, { username: 'cy', roles: ['SCOPE_items:admin'] }]);
  });

  it("keeps accepting the host's own tokens beside the providers'", async () => {
    const own = await host.app.tokenIssuer.issueToken({ identifier: 'demo', roles: ['ROLE_USER'] });
    const response = await call('GET', '/api/me', own);
    expect([response.status, await response.json()]).toEqual([200, { username: 'demo', roles: ['ROLE_USER'] }]);
  });

  it('scope items:write creates items (201), without it 403; items:admin deletes', async () => {
    const writer = await idpA.issueToken({ identifier: 'ada', scopes: ['items:write'] });
    const created = await call('POST', '/api/items', writer, { name: 'widget', quantity: 2 });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    const reader = await idpA.issueToken({ identifier: 'bo', scopes: ['openid', 'items:read'] });
    const refused = await call('POST', '/api/items', reader, { name: 'widget', quantity: 2 });
    expect(refused.status).toBe(403);
    await refused.arrayBuffer();
    const notAdmin = await call('DELETE', `/api/items/${id}`, writer);
    expect(notAdmin.status).toBe(403);
    await notAdmin.arrayBuffer();
    const admin = await idpA.issueToken({ identifier: 'root', scopes: ['items:admin'] });
    expect((await call('DELETE', `/api/items/${id}`, admin)).status).toBe(204);
  });

  it('after the provider rotates its key, a token with the new kid is accepted with exactly one JWKS fetch', async () => {
    const before = idpA.requests.jwks;
    await idpA.rotate();
    const response = await call('GET', '/api/me', await idpA.issueToken({ identifier: 'ada' }));
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    expect(idpA.requests.jwks).toBe(before + 1);
  });

  it('1,000 tokens with random kids: all 401 invalid_token, and at most one JWKS fetch beyond the first', async () => {
    const exp = Math.floor(Date.now() / 1000) + 300;
    for (let batch = 0; batch < 20; batch += 1) {
      const tokens = await Promise.all(
        Array.from({ length: 50 }, () => idpB.sign({ iss: idpB.issuer, sub: 'x', aud: AUDIENCE, exp }, { kid: randomUUID() })),
      );
      for (const response of await Promise.all(tokens.map((token) => call('GET', '/api/me', token)))) await expectInvalidToken(response);
    }
    // The first token fetched the set; the cooldown allows one refetch for an unknown kid after that.
    expect(idpB.requests.discovery).toBe(1);
    expect(idpB.requests.jwks).toBeLessThanOrEqual(2);
  });

  it('HS256 signed with the public key as the secret → 401', async () => {
    const now = Math.floor(Date.now() / 1000);
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const signed = `${part({ alg: 'HS256', kid: idpA.kid })}.${part({ iss: idpA.issuer, sub: 'mallory', aud: AUDIENCE, scope: 'items:admin', iat: now, exp: now + 60 })}`;
    const forged = `${signed}.${createHmac('sha256', JSON.stringify(idpA.publicJwk)).update(signed).digest('base64url')}`;
    await expectInvalidToken(await call('GET', '/api/me', forged));
  });

  it("a token claiming issuer B signed with issuer A's key → 401", async () => {
    await expectInvalidToken(await call('GET', '/api/me', await idpA.issueToken({ identifier: 'mallory' }, { iss: idpB.issuer })));
  });

  it('aud mismatch → 401', async () => {
    await expectInvalidToken(await call('GET', '/api/me', await idpA.issueToken({ identifier: 'ada' }, { aud: 'another-api' })));
  });

  it("the OpenAPI document offers the provider as an openIdConnect scheme with each operation's scopes", async () => {
    const document = (await (await fetch(`${host.running.url}/api/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { security?: unknown }>>;
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(document.components.securitySchemes['oidc1']).toEqual({
      type: 'openIdConnect',
      openIdConnectUrl: `${idpA.issuer}/.well-known/openid-configuration`,
    });
    expect(document.paths['/api/items']?.['post']?.security).toEqual([
      { bearerAuth: [] },
      { oidc1: ['items:write'] },
      { oidc2: ['items:write'] },
    ]);
    expect(document.paths['/api/items/{id}']?.['delete']?.security).toEqual([
      { bearerAuth: [] },
      { oidc1: ['items:admin'] },
      { oidc2: ['items:admin'] },
    ]);
  });

  it('readiness reports the key sets; with the provider stopped, its cached keys keep verifying', async () => {
    const ready = await fetch(`${host.running.url}/ready`);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', oidc: 'ok' } });
    const token = await idpA.issueToken({ identifier: 'ada', scopes: ['items:write'] });
    await idpA.stop();
    const response = await call('GET', '/api/me', token);
    expect([response.status, await response.json()]).toEqual([200, { username: 'ada', roles: ['SCOPE_items:write'] }]);
  });
});

describe('the example host when the provider cannot be reached', () => {
  it('keeps verifying with cached keys until OIDC_STALE_IF_ERROR runs out, then answers 503 with Retry-After', async () => {
    const idp = await TestIdentityProvider.start({ algorithm: 'ES256', cacheControl: 'max-age=1' });
    const stale = await startHostInProcess({ OIDC_ISSUER: idp.issuer, OIDC_AUDIENCE: AUDIENCE, OIDC_STALE_IF_ERROR: '1' });
    try {
      const token = await idp.issueToken({ identifier: 'ada' });
      const get = () => fetch(`${stale.running.url}/api/me`, { headers: { authorization: `Bearer ${token}` } });
      const first = await get();
      expect(first.status).toBe(200);
      await first.arrayBuffer();
      await idp.stop();
      // The set lives 1 s (max-age) and 1 s more (staleIfError): answers stay 200 until then, and 503 from then on.
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let attempt = 0; attempt < 300 && statuses.at(-1) !== 503; attempt += 1) {
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 50));
        last = await get();
        statuses.push(last.status);
        if (last.status === 200) await last.arrayBuffer();
      }
      expect(statuses.at(-1)).toBe(503);
      expect(statuses.slice(0, -1).every((status) => status === 200)).toBe(true);
      expect([last!.headers.get('retry-after'), await last!.json()]).toEqual(['30', { code: 503, message: 'Token keys unavailable' }]);
      const ready = await fetch(`${stale.running.url}/ready`);
      expect([ready.status, await ready.json()]).toEqual([503, { status: 'unavailable', checks: { database: 'ok', oidc: 'failed' } }]);
    } finally {
      await stale.stop();
      await idp.stop().catch(() => undefined);
    }
  });
});
