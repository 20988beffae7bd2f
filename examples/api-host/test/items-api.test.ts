import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorListener } from '@switchboard/error-controller';
import { MemoryLogger } from '@switchboard/http-kernel';
import { serve, type RunningServer } from '@switchboard/node-adapter';
import { FirewallListener, FirewallMap, IsGrantedListener, JwtAuthenticator, JwtTokenIssuer } from '@switchboard/security';
import { SERVER_IDLE_TIMEOUT_MS, idleDroppingDatabase, type TestDatabase } from '../../../test/kit/services/database-servers.js';
import { AppAssembly } from '../src/app-assembly.js';
import { loadConfig } from '../src/config.js';
import type { Database } from '../src/database/open-database.js';
import { wireCors } from '../src/wiring/cors.js';
import { wireDatabase } from '../src/wiring/database.js';
import { wireHttpCache } from '../src/wiring/http-cache.js';
import { wireItems } from '../src/wiring/items.js';
import { wireLocale } from '../src/wiring/locale.js';
import { wirePayload } from '../src/wiring/payload.js';
import { pgliteDataFolder, type PgliteDataFolder } from '../../../test/kit/services/pglite-data.js';
import { declarationOwner } from '../../../test/kit/index.js';

/**
 * The items API over node:http with this host's wiring (CORS, locale, database, items) and the
 * security steps, against embedded PGlite (what `start` uses without DATABASE_URL) and a real
 * PostgreSQL server that drops sessions idle for 1 s.
 */
const backends = [
  ['embedded PGlite (no DATABASE_URL)', async () => null],
  ['PostgreSQL (DATABASE_URL)', idleDroppingDatabase],
] as const satisfies ReadonlyArray<readonly [string, () => Promise<TestDatabase | null>]>;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(backends)('items API on %s', (_name, createDatabase) => {
  let postgres: TestDatabase | null;
  let pgliteFolder: PgliteDataFolder | null;
  let database: Database;
  let http: RunningServer;
  let base: string;
  let userToken: string;
  let adminToken: string;

  beforeAll(async () => {
    postgres = await createDatabase();
    // PGlite opens a copy of the run's empty cluster, as the host opens its folder.
    pgliteFolder = postgres === null ? await pgliteDataFolder() : null;
    const logger = new MemoryLogger();
    const host = new AppAssembly(loadConfig({ API_HOST_CONFIG: '', APP_DEBUG: '0' }), logger, null);
    const wiredDatabase = await wireDatabase(host, {
      url: postgres?.connectionString,
      ...(pgliteFolder === null ? {} : { pgliteDataDir: pgliteFolder.path }),
      idleConnectionTtlSeconds: 0.4,
    });
    database = wiredDatabase.database;
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const issuer = new JwtTokenIssuer({ privateKey, ttl: 600 });
    userToken = await issuer.issueToken({ identifier: 'ada', roles: ['ROLE_USER'] });
    adminToken = await issuer.issueToken({ identifier: 'root', roles: ['ROLE_USER', 'ROLE_ADMIN'] });
    // The security steps the items routes rely on, keyed by a pair of this test's own.
    const security = {
      subscribers: [
        new FirewallListener(
          new FirewallMap([{ name: 'api', pattern: /^\/api(\/|$)/, authenticators: [new JwtAuthenticator({ publicKey })] }]),
          { logger },
        ),
        new IsGrantedListener(),
        new ErrorListener({ debug: false, logger }),
        // Write limits and response schemas have tests of their own (rate-limit, openapi).
        declarationOwner({ routeDefaults: ['_rate_limit', '_responses'] }),
      ],
    };
    const { kernel } = host.assemble([
      wireCors(),
      wireLocale(),
      wiredDatabase,
      wireItems(database),
      wireHttpCache(),
      wirePayload(),
      security,
    ]);
    http = await serve(kernel, { port: 0, handleSignals: false });
    base = http.url;
  });

  afterAll(async () => {
    await http?.close();
    await database?.close();
    await postgres?.stop();
    await pgliteFolder?.remove();
  });

  const call = (method: string, path: string, options: { token?: string; body?: string; headers?: Record<string, string> } = {}) =>
    fetch(`${base}${path}`, {
      method,
      headers: {
        accept: 'application/json',
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
        ...options.headers,
      },
      ...(options.body === undefined ? {} : { body: options.body }),
    });
  const count = async () => ((await (await call('GET', '/api/items')).json()) as unknown[]).length;

  it('creates with a token, shows, lists, and deletes with the admin role', async () => {
    const before = await count();
    const created = await call('POST', '/api/items', { token: userToken, body: JSON.stringify({ name: ' widget ', quantity: 3 }) });
    expect(created.status).toBe(201);
    const item = (await created.json()) as { id: number; name: string; quantity: number; createdAt: string };
    expect(item).toMatchObject({ name: 'widget', quantity: 3 });
    expect(created.headers.get('location')).toBe(`/api/items/${item.id}`);

    const shown = await call('GET', `/api/items/${item.id}`);
    expect(shown.status).toBe(200);
    expect(await shown.json()).toEqual(item);
    expect(await count()).toBe(before + 1);

    expect((await call('DELETE', `/api/items/${item.id}`, { token: userToken })).status).toBe(403);
    expect((await call('DELETE', `/api/items/${item.id}`, { token: adminToken })).status).toBe(204);
    expect((await call('GET', `/api/items/${item.id}`)).status).toBe(404);
    expect((await call('DELETE', `/api/items/${item.id}`, { token: adminToken })).status).toBe(404);
  });

  it('refuses to create without a token', async () => {
    const before = await count();
    const response = await call('POST', '/api/items', { body: JSON.stringify({ name: 'x', quantity: 1 }) });
    expect(response.status).toBe(401);
    expect(await count()).toBe(before);
  });

  it('answers bad input with 400/415/422 problem documents naming the field, writing nothing', async () => {
    const before = await count();
    const malformed = await call('POST', '/api/items', { token: userToken, body: '{"name": "x", ' });
    expect(malformed.status).toBe(400);
    expect(malformed.headers.get('content-type')).toMatch(/^application\/problem\+json/);

    const missing = await call('POST', '/api/items', { token: userToken, body: JSON.stringify({ quantity: 1 }) });
    expect(missing.status).toBe(422);
    expect(((await missing.json()) as { violations: unknown }).violations).toEqual([
      { path: '/name', message: 'Required: a non-empty string.' },
    ]);

    const wrongType = await call('POST', '/api/items', { token: userToken, body: JSON.stringify({ name: 'x', quantity: '3' }) });
    expect(wrongType.status).toBe(422);
    expect(((await wrongType.json()) as { violations: Array<{ path: string }> }).violations.map((v) => v.path)).toEqual(['/quantity']);

    const both = await call('POST', '/api/items', { token: userToken, body: JSON.stringify({ name: 'x'.repeat(201), quantity: -1 }) });
    expect(((await both.json()) as { violations: Array<{ path: string }> }).violations.map((v) => v.path)).toEqual(['/name', '/quantity']);

    // PostgreSQL text cannot hold NUL: refused as a violation, never passed on to become a 500.
    const nul = await call('POST', '/api/items', { token: userToken, body: '{"name":"a\\u0000b","quantity":1}' });
    expect(nul.status).toBe(422);
    expect(((await nul.json()) as { violations: unknown }).violations).toEqual([
      { path: '/name', message: 'Must not contain the NUL character (U+0000).' },
    ]);

    const notAnObject = await call('POST', '/api/items', { token: userToken, body: '[1,2]' });
    expect(notAnObject.status).toBe(422);

    const text = await call('POST', '/api/items', { token: userToken, body: 'name=x', headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
    expect(await count()).toBe(before);
  });

  it('gives ids outside the id shape no route, never a database error', async () => {
    for (const id of ['99999999999', 'abc', '1%20OR%201=1']) {
      expect((await call('GET', `/api/items/${id}`)).status).toBe(404);
    }
  });

  it('refuses an id its schema refuses with a 400 problem document pointing at the parameter', async () => {
    const response = await call('GET', '/api/items/0');
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    const problem = (await response.json()) as { status: number; violations: { path: string; message: string }[] };
    expect(problem.status).toBe(400);
    expect(problem.violations.map((violation) => violation.path)).toEqual(['/params/id']);
  });

  it('answers a CORS preflight for the API from an allowed origin and refuses a lookalike', async () => {
    const preflight = (origin: string) =>
      fetch(`${base}/api/items`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
      });
    const allowed = await preflight('http://localhost:5173');
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    const refused = await preflight('http://localhost:5173.evil.com');
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('keeps answering after the database connection sat idle longer than the server allows', async () => {
    const statuses: number[] = [];
    for (let round = 0; round < 2; round++) {
      statuses.push(
        ...(await Promise.all([call('GET', '/api/items'), call('GET', '/api/items'), call('GET', '/api/items/1')])).map((r) => r.status),
      );
      await pause(SERVER_IDLE_TIMEOUT_MS + 600);
    }
    const created = await call('POST', '/api/items', { token: userToken, body: JSON.stringify({ name: 'after idle', quantity: 1 }) });
    statuses.push(created.status);
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
    expect(created.status).toBe(201);
  });
});
