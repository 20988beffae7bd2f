import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryLogger } from '@switchboard/http-kernel';
import { securityConfigFromEnv } from '../src/security/security-config.js';
import { PRODUCTION_LEAKS } from './support/leaks.js';
import { startHostProcess, type HostProcess } from './support/start-host.js';

/**
 * The example host as deployed: its own process with `APP_DEBUG=0`. Every behaviour of the API
 * that is not debug-only, over HTTP, and nothing of debug mode in any answer, for every `Accept`.
 */
const ACCEPT_VARIANTS: Array<[string, string | null, string]> = [
  ['html', 'text/html', 'text/html; charset=UTF-8'],
  ['json', 'application/json', 'application/problem+json'],
  ['problem+json', 'application/problem+json', 'application/problem+json'],
  ['text', 'text/plain', 'text/plain; charset=UTF-8'],
  ['anything', '*/*', 'text/html; charset=UTF-8'],
  ['no Accept', null, 'text/html; charset=UTF-8'],
];

const scratch = mkdtempSync(join(tmpdir(), 'api-host-production-'));
const keys = securityConfigFromEnv({}, new MemoryLogger(), scratch);
let host: HostProcess;
let base: string;
const tokens = { user: '', admin: '' };

interface Answer {
  status: number;
  headers: Headers;
  body: string;
}

async function call(method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  const response = await fetch(`${base}${path}`, { method, headers, redirect: 'manual', ...(body === undefined ? {} : { body }) });
  const answer = { status: response.status, headers: response.headers, body: await response.text() };
  expectNothingOfDebugMode(answer);
  return answer;
}

function expectNothingOfDebugMode({ headers, body }: Answer): void {
  expect(
    [...headers.keys()].filter(
      (name) => name.startsWith('x-debug') || name === 'x-robots-tag' || name === 'x-previous-debug-token' || name === 'server-timing',
    ),
  ).toEqual([]);
  for (const leak of PRODUCTION_LEAKS) expect(body).not.toMatch(leak);
}

beforeAll(async () => {
  host = await startHostProcess({
    APP_DEBUG: '0',
    API_HOST_CONFIG: '',
    JWT_SECRET_KEY: keys.privateKeyPath,
    JWT_PUBLIC_KEY: keys.publicKeyPath,
    JWT_PASSPHRASE: keys.passphrase!,
  });
  base = await host.url;
  for (const [role, username, password] of [
    ['user', 'demo', 'demo-password'],
    ['admin', 'admin', 'admin-password'],
  ] as const) {
    const answer = await call('POST', '/api/token', { 'content-type': 'application/json' }, JSON.stringify({ username, password }));
    expect(answer.status).toBe(200);
    tokens[role] = (JSON.parse(answer.body) as { token: string }).token;
  }
});

afterAll(async () => {
  if (host !== undefined) {
    host.child.kill('SIGTERM');
    await host.exited;
  }
  rmSync(scratch, { recursive: true, force: true });
});

it('says production mode on its startup line', () => {
  expect(host.output()).toMatch(/listening on \S+ — debug mode OFF/i);
});

describe.each(ACCEPT_VARIANTS)('Accept: %s', (_name, accept, contentType) => {
  const headers: Record<string, string> = accept === null ? {} : { accept };

  it('404 for a path with no route: status and reason phrase only', async () => {
    const answer = await call('GET', '/robots.txt', { ...headers, referer: 'https://search.example.org/' });
    expect(answer.status).toBe(404);
    expect(answer.headers.get('content-type')).toBe(contentType);
    expect(answer.headers.get('cache-control')).toBe('no-cache, private');
    expect(answer.headers.get('vary')).toBe('Accept');
    expect(answer.body).toContain('Not Found');
    expect(answer.body).not.toContain('No route found');
  });

  it('405 with Allow for a known path and a wrong method', async () => {
    const answer = await call('POST', '/health', headers);
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('GET');
    expect(answer.headers.get('content-type')).toBe(contentType);
  });

  it('/_profiler is an ordinary 404', async () => {
    for (const path of ['/_profiler/latest', '/_profiler/latest?panel=request', '/_profiler']) {
      expect((await call('GET', path, headers)).status).toBe(404);
    }
  });
});

it('301 to the other form of a toggled trailing slash, query kept, also under the firewall', async () => {
  for (const [path, target] of [
    ['/health/?a=1', '/health?a=1'],
    ['/api/items/', '/api/items'],
  ]) {
    const answer = await call('GET', path!);
    expect(answer.status).toBe(301);
    expect(answer.headers.get('location')).toBe(`${base}${target}`);
  }
});

it('the firewall: 401 without a token, 401 with a forged one, 403 for a missing role', async () => {
  const missing = await call('GET', '/api/me', { accept: 'application/json' });
  expect(missing.status).toBe(401);
  expect(missing.headers.get('www-authenticate')).toBe('Bearer');
  expect(missing.body).toBe('{"code":401,"message":"JWT Token not found"}');
  const forged = await call('GET', '/api/me', { accept: 'application/json', authorization: `Bearer ${tokens.user.slice(0, -4)}AAAA` });
  expect(forged.status).toBe(401);
  expect(forged.body).toBe('{"code":401,"message":"Invalid JWT Token"}');
  const denied = await call('GET', '/api/admin', { accept: 'application/json', authorization: `Bearer ${tokens.user}` });
  expect(denied.status).toBe(403);
});

it('CORS: a preflight from an allowed origin is answered, a refused origin gets no allow header', async () => {
  const preflight = { 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' };
  const allowed = await call('OPTIONS', '/api/items', { origin: 'http://localhost:3000', ...preflight });
  expect(allowed.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
  const refused = await call('OPTIONS', '/api/items', { origin: 'https://evil.example', ...preflight });
  expect(refused.headers.get('access-control-allow-origin')).toBeNull();
});

it('items: created by a user, read by anyone, deleted by an admin only', async () => {
  const json = { accept: 'application/json', 'content-type': 'application/json' };
  const created = await call(
    'POST',
    '/api/items',
    { ...json, authorization: `Bearer ${tokens.user}` },
    JSON.stringify({ name: 'prod', quantity: 2 }),
  );
  expect(created.status).toBe(201);
  const { id } = JSON.parse(created.body) as { id: number };
  expect((await call('GET', `/api/items/${id}`, json)).status).toBe(200);
  expect((await call('DELETE', `/api/items/${id}`, { ...json, authorization: `Bearer ${tokens.user}` })).status).toBe(403);
  expect((await call('DELETE', `/api/items/${id}`, { ...json, authorization: `Bearer ${tokens.admin}` })).status).toBe(204);
  expect((await call('GET', `/api/items/${id}`, json)).status).toBe(404);
  const invalid = await call(
    'POST',
    '/api/items',
    { ...json, authorization: `Bearer ${tokens.user}` },
    '{"name":"a\\u0000b","quantity":1}',
  );
  expect(invalid.status).toBe(422);
});
