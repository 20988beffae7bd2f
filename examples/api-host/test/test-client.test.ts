// The test examples/api-host/README.md shows ("Testing the host, or a fork of it"): keep the two equal.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MemoryLogger } from '@switchboard/http-kernel';
import { routerMatchExplainer } from '@switchboard/profiler';
import type { RouterData } from '@switchboard/profiler/collector';
import { createTestClient, type TestClient } from '@switchboard/testing';
import '@switchboard/testing/vitest';
import { createApp, type App } from '../src/app.js';
import { loadConfig } from '../src/config.js';

let app: App;
let client: TestClient;
let dataDir: string;

beforeAll(async () => {
  // A database of its own, in a folder deleted afterwards; debug mode, so responses have profiles.
  dataDir = await mkdtemp(join(tmpdir(), 'api-host-test-'));
  const config = loadConfig({ ...process.env, API_HOST_CONFIG: '', APP_DEBUG: '1', PGLITE_DATA_DIR: dataDir });
  app = await createApp(config, { logger: new MemoryLogger() });
  client = createTestClient(app.kernel);
});

afterAll(async () => {
  await client?.settled();
  await app?.shutdown();
  await rm(dataDir, { recursive: true, force: true });
});

it('creates an item for a logged-in user only', async () => {
  const item = { json: { name: 'desk', quantity: 2 }, headers: { accept: 'application/json' } };
  const anonymous = await client.post('/api/items', item);
  expect(anonymous).toHaveStatus(401);
  expect(anonymous).toHaveHeader('www-authenticate', 'Bearer');

  const ada = await client.loginAs({ identifier: 'ada', roles: ['ROLE_USER'] }, app.tokenIssuer);
  const created = await ada.post('/api/items', item);
  expect(created).toHaveStatus(201);
  expect(created.json()).toMatchObject({ name: 'desk', quantity: 2 });
});

it('says why /api/items/abc is a 404: the id must be a number', async () => {
  const response = await client.get('/api/items/abc', { headers: { accept: 'application/json' } });
  expect(response).toMatchProblem({ status: 404, title: 'Not Found' });
  const routing = response.profile!.getCollector<RouterData>('router')!;
  // The router panel's replay: each route tried, and why it did not match.
  const explain = routerMatchExplainer(app.router);
  expect(explain(routing).find((entry) => entry.name === 'items_show')?.reason).toMatch(/^Requirement for "id" does not match/);
});

it('is the test the README shows', async () => {
  const { readFileSync } = await import('node:fs');
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const shown = /## Testing the host, or a fork of it[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  const own = readFileSync(new URL(import.meta.url), 'utf8');
  expect(own.slice(own.indexOf('\n') + 1, own.indexOf("\nit('is the test the README shows")).trim()).toBe(shown?.trim());
});
