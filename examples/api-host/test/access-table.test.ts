import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryLogger } from '@switchboard/http-kernel';
import { securityConfigFromEnv } from '../src/security/security-config.js';
import '@switchboard/testing/vitest';
import { buildHostInProcess, type BuiltHost } from './support/start-host.js';

/**
 * Access decisions do not depend on the mode: every route of the example host, asked with no
 * token, a user's token and an admin's token, gets the same status with debug on and off.
 * The expected table is written out, so a wiring that disappears in one mode fails here.
 */
type Caller = 'anonymous' | 'user' | 'admin';

interface RouteCase {
  method: string;
  path: string;
  body?: string;
  expected: Record<Caller, number>;
}

const item = JSON.stringify({ name: 'table', quantity: 1 });
const routes: RouteCase[] = [
  { method: 'GET', path: '/health', expected: { anonymous: 200, user: 200, admin: 200 } },
  { method: 'GET', path: '/api/items', expected: { anonymous: 200, user: 200, admin: 200 } },
  { method: 'POST', path: '/api/items', body: item, expected: { anonymous: 401, user: 201, admin: 201 } },
  { method: 'GET', path: '/api/items/999999', expected: { anonymous: 404, user: 404, admin: 404 } },
  { method: 'DELETE', path: '/api/items/999999', expected: { anonymous: 401, user: 403, admin: 404 } },
  // Admins only; the admin's JSON body is then refused: the import reads a multipart upload.
  { method: 'POST', path: '/api/items/import', body: item, expected: { anonymous: 401, user: 403, admin: 415 } },
  { method: 'GET', path: '/api/me', expected: { anonymous: 401, user: 200, admin: 200 } },
  { method: 'GET', path: '/api/admin', expected: { anonymous: 401, user: 403, admin: 200 } },
  {
    method: 'POST',
    path: '/api/token',
    body: '{"username":"demo","password":"wrong"}',
    expected: { anonymous: 401, user: 401, admin: 401 },
  },
  // The refresh-cookie flow is off by default (REFRESH_COOKIE): its route is not there.
  { method: 'POST', path: '/api/token/refresh', expected: { anonymous: 404, user: 404, admin: 404 } },
  // A trailing-slash redirect is decided by routing alone: the firewall judges the target when the client follows it.
  { method: 'GET', path: '/api/items/', expected: { anonymous: 301, user: 301, admin: 301 } },
  { method: 'GET', path: '/api/me/', expected: { anonymous: 301, user: 301, admin: 301 } },
  { method: 'GET', path: '/health/', expected: { anonymous: 301, user: 301, admin: 301 } },
];

for (const debug of [true, false]) {
  describe(`access table, APP_DEBUG=${debug ? 1 : 0}`, () => {
    const varDir = mkdtempSync(join(tmpdir(), 'api-host-access-'));
    const keys = securityConfigFromEnv({}, new MemoryLogger(), varDir);
    let host: BuiltHost;
    const tokens: Record<Caller, string | null> = { anonymous: null, user: null, admin: null };

    beforeAll(async () => {
      host = await buildHostInProcess({
        APP_DEBUG: debug ? '1' : '0',
        JWT_SECRET_KEY: keys.privateKeyPath,
        JWT_PUBLIC_KEY: keys.publicKeyPath,
        JWT_PASSPHRASE: keys.passphrase!,
      });
      for (const [caller, password] of [
        ['user', 'demo-password'],
        ['admin', 'admin-password'],
      ] as const) {
        const username = caller === 'user' ? 'demo' : 'admin';
        const response = await host.client.post('/api/token', { json: { username, password } });
        expect(response).toHaveStatus(200);
        tokens[caller] = response.json<{ token: string }>().token;
      }
    });

    afterAll(async () => {
      await host?.stop();
      rmSync(varDir, { recursive: true, force: true });
    });

    for (const route of routes) {
      it(`${route.method} ${route.path}`, async () => {
        const seen: Record<Caller, number> = { anonymous: 0, user: 0, admin: 0 };
        for (const caller of ['anonymous', 'user', 'admin'] as const) {
          const token = tokens[caller];
          const response = await host.client.request(route.method, route.path, {
            headers: {
              accept: 'application/json',
              ...(route.body === undefined ? {} : { 'content-type': 'application/json' }),
              ...(token === null ? {} : { authorization: `Bearer ${token}` }),
            },
            ...(route.body === undefined ? {} : { body: route.body }),
          });
          seen[caller] = response.status;
        }
        expect(seen).toEqual(route.expected);
      });
    }

    it('a trailing-slash redirect answers 301 to the target even with a forged token', async () => {
      const response = await host.client.get('/api/items/?page=2', { headers: { authorization: 'Bearer aaa.bbb.ccc' } });
      expect(response).toHaveStatus(301);
      expect(response).toRedirectTo('http://localhost/api/items?page=2');
      expect(response).not.toHaveHeader('www-authenticate');
    });
  });
}
