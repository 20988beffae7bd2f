/**
 * The refresh-cookie flow is off unless `REFRESH_COOKIE` turns it on: by default the host sets no
 * cookie on any answer of the token routes, `"remember": true` included, and does not route
 * `POST /api/token/refresh`. Over a real socket, in debug mode (the default), where the stateless
 * check would also fail a request that tried to set one.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jwtKeyEnv, startHostInProcess, type StartedHost } from './support/start-host.js';

const varDir = mkdtempSync(join(tmpdir(), 'api-host-refresh-setting-'));
afterAll(() => rmSync(varDir, { recursive: true, force: true }));

/** A POST as a program sends it (no `Origin`), the answer's status, `Set-Cookie` lines and JSON body. */
async function post(host: StartedHost, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${host.running.url}${path}`, {
    method: 'POST',
    headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, cookies: response.headers.getSetCookie(), json: JSON.parse(text) as Record<string, unknown> };
}

const remembered = { username: 'demo', password: 'demo-password', remember: true };

describe('the default host (REFRESH_COOKIE unset)', () => {
  let host: StartedHost;
  beforeAll(async () => {
    host = await startHostInProcess(jwtKeyEnv(join(varDir, 'default')));
  });
  afterAll(() => host?.stop());

  it('answers a login with "remember": true with the token alone, and no cookie', async () => {
    const login = await post(host, '/api/token', remembered);
    expect(login.status).toBe(200);
    expect(Object.keys(login.json).sort()).toEqual(['expires_in', 'token', 'token_type']);
    expect(login.cookies).toEqual([]);
    // A page of the host's own origin gets no cookie either.
    const fromPage = await post(host, '/api/token', remembered, { origin: host.running.url, 'sec-fetch-site': 'same-origin' });
    expect(fromPage.status).toBe(200);
    expect(fromPage.cookies).toEqual([]);
  });

  it('sets no cookie on a refused login either', async () => {
    const refused = await post(host, '/api/token', { ...remembered, password: 'wrong' });
    expect(refused.status).toBe(401);
    expect(refused.cookies).toEqual([]);
  });

  it('does not route POST /api/token/refresh', async () => {
    const refresh = await post(host, '/api/token/refresh', undefined, { origin: host.running.url, cookie: '__Secure-refresh=x' });
    expect(refresh.status).toBe(404);
    expect(refresh.cookies).toEqual([]);
  });
});

describe('REFRESH_COOKIE=1', () => {
  let host: StartedHost;
  beforeAll(async () => {
    host = await startHostInProcess({ ...jwtKeyEnv(join(varDir, 'on')), REFRESH_COOKIE: '1' });
  });
  afterAll(() => host?.stop());

  it('sets the refresh cookie on a login with "remember": true, and routes the refresh', async () => {
    const login = await post(host, '/api/token', remembered);
    expect(login.status).toBe(200);
    expect(login.cookies).toEqual([
      expect.stringMatching(/^__Secure-refresh=[^;]+; Max-Age=\d+; Path=\/api\/token; HttpOnly; Secure; SameSite=Strict$/),
    ]);
    const withoutCookie = await post(host, '/api/token/refresh', undefined, { origin: host.running.url });
    expect(withoutCookie.status).toBe(401);
  });
});
