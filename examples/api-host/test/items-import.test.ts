import { MemoryLogger } from '@switchboard/http-kernel';
import { createTestClient, type TestClient } from '@switchboard/testing';
import '@switchboard/testing/vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/kit/services/database-servers.js';
import { createApp, type App } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { IMPORT_BATCH_ROWS, insertItems } from '../src/items/item-import.js';
import { itemImportMaxBytes } from '../src/wiring/item-import.js';

/** `POST /api/items/import` in the whole host (security, rate limit, payload, database), on a database of its own. */
let app: App;
let client: TestClient;
let admin: TestClient;
let user: TestClient;
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  const config = loadConfig({
    ...process.env,
    API_HOST_CONFIG: '',
    APP_DEBUG: '0',
    ALLOW_DEMO_USERS: '1',
    DATABASE_URL: database.connectionString,
  });
  app = await createApp(config, { logger: new MemoryLogger() });
  client = createTestClient(app.kernel);
  admin = await client.loginAs({ identifier: 'root', roles: ['ROLE_USER', 'ROLE_ADMIN'] }, app.tokenIssuer!);
  user = await client.loginAs({ identifier: 'ada', roles: ['ROLE_USER'] }, app.tokenIssuer!);
});

afterAll(async () => {
  await client?.settled();
  await app?.shutdown();
  await database?.stop();
});

const importFile = (as: TestClient, lines: string) => {
  const form = new FormData();
  form.set('file', new File([lines], 'items.jsonl', { type: 'application/jsonl' }));
  return as.post('/api/items/import', { body: form, headers: { accept: 'application/json' } });
};
const itemNames = async (): Promise<string[]> =>
  ((await client.get('/api/items')).json() as Array<{ name: string }>).map((item) => item.name);

describe('POST /api/items/import', () => {
  it('is for admins only: 401 without a token, 403 for a user, nothing read or imported', async () => {
    expect(await importFile(client, '{"name":"anon","quantity":1}\n')).toHaveStatus(401);
    expect(await importFile(user, '{"name":"user","quantity":1}\n')).toMatchProblem({ status: 403 });
    expect(await itemNames()).not.toContain('user');
  });

  it('imports every line of a valid file, ignoring the id and createdAt an export carries', async () => {
    const lines = [
      '{"id":7,"name":"chair","quantity":4,"createdAt":"2026-01-01T00:00:00.000Z"}',
      '',
      '{"name":"  lamp ","quantity":0}',
    ].join('\n');
    const response = await importFile(admin, `${lines}\n`);
    expect(response).toHaveStatus(201);
    expect(response.json()).toEqual({ imported: 2 });
    expect(await itemNames()).toEqual(expect.arrayContaining(['chair', 'lamp']));
  });

  it('answers 422 with the violations of each bad line, and imports nothing', async () => {
    const before = await itemNames();
    const lines = ['{"name":"good","quantity":1}', '{"name":"","quantity":1}', 'not json', '{"name":"neg","quantity":-2}'].join('\n');
    const response = await importFile(admin, lines);
    expect(response).toMatchProblem({ status: 422 });
    expect((response.json() as { violations: Array<{ path: string }> }).violations.map((violation) => violation.path)).toEqual([
      '/lines/2/name',
      '/lines/3',
      '/lines/4/quantity',
    ]);
    expect(await itemNames()).toEqual(before);
  });

  it('stores nothing when a statement fails partway: the staged rows and the pending import are removed, no change recorded', async () => {
    // The database refuses the second statement (a negative quantity), after the first was stored.
    const items = Array.from({ length: IMPORT_BATCH_ROWS + 10 }, (_, index) => ({
      name: `partial ${index}`,
      quantity: index === IMPORT_BATCH_ROWS + 5 ? -1 : 1,
    }));
    await expect(insertItems(app.database.connection, items)).rejects.toThrow(/check constraint/);
    const count = async (sql: string) => Number((await app.database.connection.query<{ n: string }>(sql)).rows[0]!.n);
    expect(await count(`SELECT count(*) AS n FROM items WHERE name LIKE 'partial %'`)).toBe(0);
    expect(await count('SELECT count(*) AS n FROM pending_item_imports')).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM item_changes WHERE item->>'name' LIKE 'partial %'`)).toBe(0);
  });

  it('records the changes of an import once it is published, and removes the rows of an import abandoned an hour ago', async () => {
    const db = app.database.connection;
    // What a process that crashed midway leaves: a pending import and its staged rows.
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO pending_item_imports (started_at) VALUES (now() - interval '2 hours') RETURNING id`,
    );
    const abandoned = rows[0]!.id;
    await db.query(
      `INSERT INTO items (name, quantity, import_id) SELECT 'abandoned ' || n, 1, $1::integer FROM generate_series(1, 1500) AS n`,
      [abandoned],
    );
    expect(await itemNames()).not.toContain('abandoned 1');

    expect(await importFile(admin, '{"name":"published 1","quantity":1}\n{"name":"published 2","quantity":2}\n')).toHaveStatus(201);
    const count = async (sql: string, values: unknown[] = []) => Number((await db.query<{ n: string }>(sql, values)).rows[0]!.n);
    expect(await count('SELECT count(*) AS n FROM items WHERE import_id = $1', [abandoned])).toBe(0);
    expect(await count('SELECT count(*) AS n FROM pending_item_imports')).toBe(0);
    const { rows: changes } = await db.query<{ kind: string; item: Record<string, unknown> }>(
      `SELECT kind, item FROM item_changes WHERE item->>'name' LIKE 'published %' OR item->>'name' LIKE 'abandoned %' ORDER BY id`,
    );
    expect(changes.map((change) => [change.kind, change.item['name']])).toEqual([
      ['created', 'published 1'],
      ['created', 'published 2'],
    ]);
    expect(Object.keys(changes[0]!.item).sort()).toEqual(['created_at', 'id', 'name', 'quantity']);
  });

  it('refuses an empty file, and a part that is not a file', async () => {
    expect(await importFile(admin, '\n\n')).toMatchProblem({ status: 422 });
    const form = new FormData();
    form.set('file', 'just text');
    const notAFile = await admin.post('/api/items/import', { body: form, headers: { accept: 'application/json' } });
    expect(notAFile).toMatchProblem({ status: 422 });
  });

  it('answers 413 for a file over the limit (1 MiB unless ITEM_IMPORT_MAX_BYTES says otherwise)', async () => {
    expect(itemImportMaxBytes({})).toBe(1024 * 1024);
    expect(itemImportMaxBytes({ ITEM_IMPORT_MAX_BYTES: '2048' })).toBe(2048);
    expect(() => itemImportMaxBytes({ ITEM_IMPORT_MAX_BYTES: '1MB' })).toThrow(/ITEM_IMPORT_MAX_BYTES/);
    const line = `${JSON.stringify({ name: 'x'.repeat(100), quantity: 1 })}\n`;
    const response = await importFile(admin, line.repeat(Math.ceil((1024 * 1024 + 1) / line.length)));
    expect(response).toMatchProblem({ status: 413 });
  });
});
