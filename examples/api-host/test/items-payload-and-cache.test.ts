import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorListener } from '@switchboard/error-controller';
import { nullLogger } from '@switchboard/http-kernel';
import { createTestClient, type TestClient } from '@switchboard/testing';
import { createTestDatabase, type TestDatabase } from '../../../test/kit/services/database-servers.js';
import { AppAssembly } from '../src/app-assembly.js';
import { loadConfig } from '../src/config.js';
import type { Database } from '../src/database/open-database.js';
import { wireDatabase } from '../src/wiring/database.js';
import { wireHttpCache } from '../src/wiring/http-cache.js';
import { wireItems } from '../src/wiring/items.js';
import { wirePayload } from '../src/wiring/payload.js';
import { declarationOwner } from '../../../test/kit/index.js';

/**
 * The items API's payload mapping (POST /api/items) and cache attribute (GET /api/items/:id) with
 * this host's wirings, on PostgreSQL, through the test client (the node adapter's rules, in process). Security is left out: its steps are
 * tested in items-api.test.ts; here only the payload and cache steps matter.
 */
let database: Database;
let testDatabase: TestDatabase | undefined;
let client: TestClient;

beforeAll(async () => {
  const host = new AppAssembly(loadConfig({ API_HOST_CONFIG: '', APP_DEBUG: '0' }), nullLogger, null);
  testDatabase = await createTestDatabase();
  const wiredDatabase = await wireDatabase(host, { url: testDatabase.connectionString });
  database = wiredDatabase.database;
  // Security, write limits and response schemas are left out: their declarations are owned here only.
  const notUnderTest = declarationOwner({ routeDefaults: ['_is_granted', '_rate_limit', '_responses'] });
  const errors = { subscribers: [new ErrorListener({ debug: false }), notUnderTest] };
  const { kernel } = host.assemble([wiredDatabase, wireItems(database), wireHttpCache(), wirePayload(), errors]);
  client = createTestClient(kernel);
});

afterAll(async () => {
  await client?.settled();
  await database?.close();
  await testDatabase?.stop();
});

const create = (body: string, contentType = 'application/json') =>
  client.post('/api/items', { headers: { 'content-type': contentType, accept: 'application/json' }, body });

describe('POST /api/items maps its payload', () => {
  it('creates from a valid body, trimmed and without unknown members', async () => {
    const response = await create(JSON.stringify({ name: '  desk ', quantity: 2, admin: true }));
    expect(response.status).toBe(201);
    const item = (await response.json()) as Record<string, unknown>;
    expect(item).toMatchObject({ name: 'desk', quantity: 2 });
    expect(item).not.toHaveProperty('admin');
  });

  it('refuses bad payloads with problem documents, writing nothing', async () => {
    const countBefore = ((await (await client.get(`/api/items`)).json()) as unknown[]).length;
    const cases: Array<[string, string, number]> = [
      ['{"name":', 'application/json', 400],
      ['name=desk&quantity=1', 'application/x-www-form-urlencoded', 415],
      [JSON.stringify({ name: 'x'.repeat(70 * 1024), quantity: 1 }), 'application/json', 413],
      [JSON.stringify({ name: 'desk', quantity: 1.5 }), 'application/json', 422],
    ];
    for (const [body, contentType, status] of cases) {
      const response = await create(body, contentType);
      expect(response.status, `${contentType} ${body.slice(0, 20)}`).toBe(status);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
    }
    const invalid = await create(JSON.stringify({ quantity: -1 }));
    expect(((await invalid.json()) as { violations: unknown }).violations).toEqual([
      { path: '/name', message: 'Required: a non-empty string.' },
      { path: '/quantity', message: 'Required: a whole number from 0 to 1000000.' },
    ]);
    expect(((await (await client.get(`/api/items`)).json()) as unknown[]).length).toBe(countBefore);
  });
});

describe('GET /api/items/:id carries the cache attribute', () => {
  it('sends Cache-Control and an ETag, answers a revalidation with 304, and a deleted item with an uncached 404', async () => {
    const created = (await (await create(JSON.stringify({ name: 'lamp', quantity: 1 }))).json()) as { id: number };
    const shown = await client.get(`/api/items/${created.id}`);
    expect(shown.status).toBe(200);
    expect(shown.headers.get('cache-control')).toBe('max-age=30, public, stale-while-revalidate=30');
    const etag = shown.headers.get('etag');
    expect(etag).toMatch(new RegExp(`^"item-${created.id}-\\d+"$`));

    const revalidated = await client.get(`/api/items/${created.id}`, { headers: { 'if-none-match': etag! } });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe('');

    await database.connection.query('DELETE FROM items WHERE id = $1', [created.id]);
    const gone = await client.get(`/api/items/${created.id}`, { headers: { 'if-none-match': etag!, accept: 'application/json' } });
    expect(gone.status).toBe(404);
    expect(gone.headers.get('cache-control')).toBe('no-cache, private');
    expect(gone.headers.get('etag')).toBeNull();
  });
});
