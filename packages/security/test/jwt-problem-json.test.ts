/**
 * The JWT firewall's 401 as a problem document (`failureFormat: 'problem+json'`), beside the 403 the
 * error listener writes for the same API, so a client needs one parser for both.
 */
import { defineController, JsonResponse, type Request } from '@switchboard/http-kernel';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentUser, FirewallListener, FirewallMap, IsGrantedListener, JwtAuthenticator, loadJwtKeys } from '../src/index.js';
import { generateKeyFiles } from './support/keys.js';
import { LeakLedger } from './support/leak-ledger.js';
import { startTestHost, type TestHost } from './support/test-host.js';

const ledger = new LeakLedger();
let host: TestHost;
let userToken: string;

const me = defineController(['request'], (request: Request) => new JsonResponse({ user: currentUser(request)?.identifier ?? null }));

beforeAll(async () => {
  const keys = generateKeyFiles('rsa');
  ledger.addSecret(keys.passphrase);
  for (const fragment of keys.secretFragments) ledger.addSecret(fragment);
  const loaded = loadJwtKeys(keys);
  const now = Math.floor(Date.now() / 1000);
  userToken = await new SignJWT({ username: 'alice', roles: ['ROLE_USER'], iat: now, exp: now + 600 })
    .setProtectedHeader({ alg: 'RS256' })
    .sign(loaded.privateKey!);
  const authenticator = new JwtAuthenticator({ publicKey: loaded.publicKey, failureFormat: 'problem+json' });
  host = await startTestHost({
    ledger,
    routes: [
      { name: 'api_me', path: '/api/me', controller: me },
      { name: 'api_admin', path: '/api/admin', controller: me, defaults: { _is_granted: ['ROLE_ADMIN'] } },
    ],
    setup(dispatcher, logger) {
      dispatcher.addSubscriber(
        new FirewallListener(new FirewallMap([{ name: 'api', pattern: /^\/api/, authenticators: [authenticator] }]), { logger }),
      );
      dispatcher.addSubscriber(new IsGrantedListener());
    },
  });
});

afterAll(async () => {
  await host?.close();
});

describe('the JWT firewall answering with problem documents', () => {
  it('answers a request without a token and one with a bad token with an RFC 9457 401', async () => {
    const missing = await host.request('/api/me');
    expect(missing.status).toBe(401);
    expect(missing.headers.get('content-type')).toBe('application/problem+json');
    expect(missing.headers.get('www-authenticate')).toBe('Bearer');
    expect(JSON.parse(missing.body)).toEqual({ type: 'about:blank', title: 'Unauthorized', status: 401, detail: 'JWT Token not found' });

    const invalid = await host.request('/api/me', { headers: { authorization: 'Bearer not.a.token' } });
    expect(invalid.status).toBe(401);
    expect(invalid.headers.get('content-type')).toBe('application/problem+json');
    expect(invalid.headers.get('www-authenticate')).toBe('Bearer error="invalid_token", error_description="Invalid JWT Token"');
    expect(JSON.parse(invalid.body)).toEqual({ type: 'about:blank', title: 'Unauthorized', status: 401, detail: 'Invalid JWT Token' });
  });

  it('gives the 403 of a missing role the same members, so one parser reads both', async () => {
    const denied = await host.request('/api/admin', { headers: { authorization: `Bearer ${userToken}`, accept: 'application/json' } });
    expect(denied.status).toBe(403);
    expect(denied.headers.get('content-type')).toBe('application/problem+json');
    expect(JSON.parse(denied.body)).toMatchObject({ type: 'about:blank', title: 'Forbidden', status: 403 });
  });
});
