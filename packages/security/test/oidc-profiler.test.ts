import { defineController, JsonResponse, type Request } from '@switchboard/http-kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestIdentityProvider } from '../../../test/kit/identity-provider.js';
import { currentUser, FirewallListener, FirewallMap, OidcAuthenticator } from '../src/index.js';
import { LeakLedger } from './support/leak-ledger.js';
import { startTestHost, type TestHost } from './support/test-host.js';

const ledger = new LeakLedger();
let idp: TestIdentityProvider;
let host: TestHost;

beforeAll(async () => {
  idp = await TestIdentityProvider.start({ algorithm: 'ES256' });
  const oidc = new OidcAuthenticator({ issuers: [{ issuer: idp.issuer, audience: 'switchboard-api', algorithms: ['ES256'] }] });
  const me = defineController(['request'], (request: Request) => new JsonResponse({ user: currentUser(request)?.identifier ?? null }));
  host = await startTestHost({
    ledger,
    routes: [{ name: 'api_me', path: '/api/me', controller: me }],
    setup(dispatcher, logger) {
      dispatcher.addSubscriber(
        new FirewallListener(new FirewallMap([{ name: 'api', pattern: /^\/api/, authenticators: [oidc] }]), { logger }),
      );
    },
  });
});

afterAll(async () => {
  await host?.close();
  await idp?.stop();
});

async function securityOf(debugToken: string | null): Promise<unknown> {
  expect(debugToken).toMatch(/^[0-9a-f]+$/);
  // Profiles are saved at kernel.terminate, after the response was sent: wait for it, boundedly.
  for (let i = 0; i < 200 && !host.profiler!.storage.has(debugToken!); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  return (await host.profiler!.storage.read(debugToken!))?.collectors['security'];
}

describe("the profiler's security panel with an OIDC token", () => {
  it('shows the issuer, the kid and the key set state; never the token', async () => {
    const token = await idp.issueToken({ identifier: 'ada', scopes: ['items:write'] });
    const response = await host.request('/api/me', { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    const security = await securityOf(response.headers.get('x-debug-token'));
    expect(security).toMatchObject({
      firewall: 'api',
      user: { identifier: 'ada', roles: ['SCOPE_items:write'] },
      token: {
        authenticator: 'oidc',
        issuer: idp.issuer,
        kid: idp.kid,
        keySet: { url: `${idp.issuer}/jwks`, status: 'fresh', kids: [idp.kid], fetches: 1, failures: 0, lastError: null },
      },
    });
    expect(JSON.stringify(security)).not.toContain(token.split('.')[2]);
  });

  it('a token with an unknown kid shows that kid and the set it was looked up in', async () => {
    const forged = await idp.sign({ iss: idp.issuer, sub: 'x', aud: 'switchboard-api', exp: 2e9 }, { kid: 'no-such-key' });
    const response = await host.request('/api/me', { headers: { authorization: `Bearer ${forged}` } });
    expect(response.status).toBe(401);
    expect(await securityOf(response.headers.get('x-debug-token'))).toMatchObject({
      user: null,
      token: { issuer: idp.issuer, kid: 'no-such-key', keySet: { status: 'fresh' } },
    });
  });
});
