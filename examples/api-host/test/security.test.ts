import { once } from 'node:events';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorListener } from '@switchboard/error-controller';
import { EventDispatcher, HttpKernel, MemoryLogger, type KernelEventMap } from '@switchboard/http-kernel';
import { createRequestListener } from '@switchboard/node-adapter';
import { RouteCollection, Router, RouterListener } from '@switchboard/router';
import { securityConfigFromEnv, wireSecurity } from '../src/wiring/security.js';

/**
 * The host's security wiring over node:http with the real router and adapter: keys and
 * passphrase generated at first start into a fresh var/ folder, the demo users of
 * config/security-users.json, and a scan of everything sent or logged for the secrets.
 */
describe('example host security (POST /api/token, GET /api/me, GET /api/admin)', () => {
  const varDir = mkdtempSync(join(tmpdir(), 'api-host-var-'));
  const logger = new MemoryLogger();
  const sent: string[] = [];
  let http: Server;
  let base: string;

  beforeAll(async () => {
    const dispatcher = new EventDispatcher<KernelEventMap>();
    const routes = new RouteCollection();
    const config = securityConfigFromEnv({}, logger, varDir);
    wireSecurity({ dispatcher, routes, debug: true, logger }, config);
    dispatcher.addSubscriber(new RouterListener(new Router(routes), { logger }));
    dispatcher.addSubscriber(new ErrorListener({ debug: true, logger }));
    http = createServer(createRequestListener(new HttpKernel({ dispatcher, logger })));
    http.listen(0, '127.0.0.1');
    await once(http, 'listening');
    base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    http?.closeAllConnections();
    await new Promise((resolve) => (http ? http.close(resolve) : resolve(undefined)));
  });

  async function call(method: string, path: string, headers: Record<string, string> = {}, body?: string) {
    const response = await fetch(`${base}${path}`, { method, headers: { accept: 'application/json', ...headers }, ...(body === undefined ? {} : { body }) });
    const text = await response.text();
    sent.push(`${response.status} ${JSON.stringify([...response.headers])} ${text}`);
    return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) as Record<string, unknown> };
  }
  const login = (username: string, password: string) =>
    call('POST', '/api/token', { 'content-type': 'application/json' }, JSON.stringify({ username, password }));

  it('generated the key pair and the passphrase at first start, private files mode 0600, and warned without the passphrase', () => {
    for (const file of ['private.pem', 'passphrase']) expect(statSync(join(varDir, 'jwt', file)).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(varDir, 'jwt', 'private.pem'), 'utf8')).toContain('-----BEGIN ENCRYPTED PRIVATE KEY-----');
    const warnings = logger.records.filter((record) => record.level === 'WARNING').map((record) => record.message);
    expect(warnings).toEqual([
      'JWT_PASSPHRASE is not set: using the passphrase generated in the git-ignored file shown here. Set JWT_PASSPHRASE outside local development.',
      'Generated a JWT key pair for local use (first start).',
    ]);
  });

  it('a second start reuses the keys and the passphrase', () => {
    const before = readFileSync(join(varDir, 'jwt', 'private.pem'), 'utf8');
    const again = securityConfigFromEnv({}, new MemoryLogger(), varDir);
    expect(readFileSync(join(varDir, 'jwt', 'private.pem'), 'utf8')).toBe(before);
    expect(again.passphrase).toBe(readFileSync(join(varDir, 'jwt', 'passphrase'), 'utf8').trim());
  });

  it('POST /api/token with the demo credentials → a Bearer token; GET /api/me with it → the user', async () => {
    const issued = await login('demo', 'demo-password');
    expect(issued.status).toBe(200);
    expect(issued.headers.get('cache-control')).toContain('no-store');
    const { token, token_type, expires_in } = issued.json();
    expect(token_type).toBe('Bearer');
    expect(expires_in).toBe(900);
    const me = await call('GET', '/api/me', { authorization: `Bearer ${String(token)}` });
    expect(me.status).toBe(200);
    expect(me.json()).toEqual({ username: 'demo', roles: ['ROLE_USER'] });
  });

  it('a wrong password and an unknown user get the same 401', async () => {
    const wrong = await login('demo', 'not-the-password');
    const unknown = await login('nobody', 'demo-password');
    for (const response of [wrong, unknown]) {
      expect(response.status).toBe(401);
      expect(response.text).toBe('{"code":401,"message":"Invalid credentials."}');
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
    }
  });

  it('a malformed token request → 400 through the error flow', async () => {
    const response = await call('POST', '/api/token', { 'content-type': 'application/json' }, '{"username":');
    expect(response.status).toBe(400);
    expect(response.json()).toMatchObject({ detail: 'The body must be JSON: {"username": "…", "password": "…"}.' });
  });

  it('GET /api/me without a token → 401 JWT Token not found', async () => {
    const response = await call('GET', '/api/me');
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect(response.text).toBe('{"code":401,"message":"JWT Token not found"}');
  });

  it('GET /api/admin: 403 for the demo user, 200 for the admin', async () => {
    const demo = String((await login('demo', 'demo-password')).json()['token']);
    const admin = String((await login('admin', 'admin-password')).json()['token']);
    const denied = await call('GET', '/api/admin', { authorization: `Bearer ${demo}` });
    expect(denied.status).toBe(403);
    expect(denied.json()).toMatchObject({ detail: 'Access Denied by _is_granted(ROLE_ADMIN) on route "api_admin".' });
    const granted = await call('GET', '/api/admin', { authorization: `Bearer ${admin}` });
    expect(granted.status).toBe(200);
    expect(granted.json()).toEqual({ admin: 'admin' });
  });

  it('an unknown /api path is 404, not 401', async () => {
    expect((await call('GET', '/api/nothing-here')).status).toBe(404);
  });

  it('nothing sent or logged contains the passphrase or the private key', () => {
    const passphrase = readFileSync(join(varDir, 'jwt', 'passphrase'), 'utf8').trim();
    const keyLines = readFileSync(join(varDir, 'jwt', 'private.pem'), 'utf8').split('\n').filter((line) => line.length === 64);
    expect(passphrase.length).toBeGreaterThan(20);
    expect(keyLines.length).toBeGreaterThan(10);
    const everything = [...sent, ...logger.records.map((record) => JSON.stringify(record, (_k, v: unknown) => (v instanceof Error ? `${v.message}\n${v.stack}` : v)))].join('\n');
    expect(sent.length).toBeGreaterThan(8);
    for (const secret of [passphrase, ...keyLines]) expect(everything.includes(secret)).toBe(false);
  });
});
