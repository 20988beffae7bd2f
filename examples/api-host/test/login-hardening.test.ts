import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryLogger } from '@switchboard/http-kernel';
import { nodeHttpRequest } from '../../../test/kit/raw-http.js';
import { securityConfigFromEnv } from '../src/security/security-config.js';
import { DEMO_USERS_FILE } from '../src/security/users.js';
import { startHostInProcess, startHostProcess, type StartedHost } from './support/start-host.js';

/**
 * The login (`POST /api/token`) cannot be driven by another site's page, and production mode
 * does not start with the demo accounts whose passwords the docs publish.
 */
const scratch = mkdtempSync(join(tmpdir(), 'api-host-login-hardening-'));
const keys = securityConfigFromEnv({}, new MemoryLogger(), scratch);
const KEY_ENV = { JWT_SECRET_KEY: keys.privateKeyPath, JWT_PUBLIC_KEY: keys.publicKeyPath, JWT_PASSPHRASE: keys.passphrase! };

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('POST /api/token takes JSON from this site, CORS-allowed pages and programs only', () => {
  let host: StartedHost;
  const LOGIN = JSON.stringify({ username: 'demo', password: 'demo-password' });

  beforeAll(async () => {
    host = await startHostInProcess({ APP_DEBUG: '0', ...KEY_ENV });
  });
  afterAll(async () => {
    await host?.stop();
  });

  /** Password checks the host ran, queued, refused or skipped so far. */
  const checks = (): number => {
    const { running, queued, completed, refused, skipped } = host.app.passwordHashing.stats;
    return running + queued + completed + refused + skipped;
  };
  const login = (headers: Record<string, string>, body = LOGIN) =>
    nodeHttpRequest(host.running.url, '/api/token', { method: 'POST', headers: { accept: 'application/json', ...headers }, body });

  // What an HTML form or a `fetch` without a preflight can send: text/plain, a form, no type at all.
  const SIMPLE_TYPES: Array<Record<string, string>> = [
    { 'content-type': 'text/plain;charset=UTF-8' },
    { 'content-type': 'application/x-www-form-urlencoded' },
    { 'content-type': 'multipart/form-data; boundary=x' },
    {},
  ];

  it('a body that is not application/json → 415, and no password is checked', async () => {
    const before = checks();
    for (const type of SIMPLE_TYPES) {
      const response = await login(type);
      expect(response.status, JSON.stringify(type)).toBe(415);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    }
    expect(checks()).toBe(before);
  });

  it("another site's page → 403 whatever it sends, and no password is checked", async () => {
    const before = checks();
    const crossSite = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
    for (const type of [...SIMPLE_TYPES, { 'content-type': 'application/json' }]) {
      const response = await login({ ...crossSite, ...type });
      expect(response.status, JSON.stringify(type)).toBe(403);
    }
    // A browser without Sec-Fetch-Site still sends Origin.
    expect((await login({ origin: 'https://evil.example', 'content-type': 'application/json' })).status).toBe(403);
    expect(checks()).toBe(before);
  });

  it('JSON from a program, this site, or a page CORS lets in → a token', async () => {
    const port = new URL(host.running.url).port;
    const callers: Array<Record<string, string>> = [
      {},
      { origin: `http://127.0.0.1:${port}`, 'sec-fetch-site': 'same-origin' },
      { origin: 'http://localhost:5173', 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of callers) {
      // fetch waits as long as the check takes (at nice 19 on a busy machine, seconds).
      const response = await fetch(`${host.running.url}/api/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: LOGIN,
      });
      expect(response.status, JSON.stringify(headers)).toBe(200);
      expect(await response.json()).toMatchObject({ token_type: 'Bearer' });
    }
  });

  it('malformed JSON → 400, a wrong shape → 422, both before any password check', async () => {
    const before = checks();
    expect((await login({ 'content-type': 'application/json' }, '{"username":')).status).toBe(400);
    expect((await login({ 'content-type': 'application/json' }, JSON.stringify({ username: 'demo', password: 42 }))).status).toBe(422);
    expect((await login({ 'content-type': 'application/json' }, JSON.stringify({ username: 'x'.repeat(201), password: 'p' }))).status).toBe(
      422,
    );
    expect(checks()).toBe(before);
  });
});

describe('production mode and the demo accounts', () => {
  it('refuses to start on the shipped users file (exit 78, naming SECURITY_USERS_FILE), unless ALLOW_DEMO_USERS=1, which it warns of', {
    timeout: 300_000,
  }, async () => {
    for (const usersFile of [DEMO_USERS_FILE, '' /* the default: the shipped file */]) {
      const refused = await startHostProcess({ APP_DEBUG: '0', ...KEY_ENV, SECURITY_USERS_FILE: usersFile });
      await expect(refused.url).rejects.toThrow(/exited with 78/);
      expect(refused.output()).toBe('');
      expect(refused.log().match(/SECURITY_USERS_FILE/g)).toHaveLength(1);
      expect(refused.log()).toMatch(/^Configuration error: Production mode \(APP_DEBUG=0\) refuses the demo accounts \(demo, admin\)/m);
    }

    const allowed = await startHostProcess({ APP_DEBUG: '0', ...KEY_ENV, SECURITY_USERS_FILE: DEMO_USERS_FILE, ALLOW_DEMO_USERS: '1' });
    try {
      expect((await fetch(`${await allowed.url}/health`)).status).toBe(200);
      // Allowed, and said at start: a deployment left that way shows it in its log, once.
      const warnings = allowed.log().match(/^.*WARNING.*serves the demo accounts \(demo, admin\).*$/gm) ?? [];
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('because ALLOW_DEMO_USERS=1: their passwords are published');
    } finally {
      allowed.child.kill('SIGTERM');
      expect(await allowed.exited).toBe(0);
    }
  });
});
