import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryLogger } from '@switchboard/http-kernel';
import { securityConfigFromEnv } from '../src/security/security-config.js';
import { curl } from './support/clients.js';
import { buildHostInProcess, type BuiltHost } from './support/start-host.js';

/**
 * The whole host as main.ts builds it (createApp), through the test client: item creation goes through the firewall,
 * authorization and then payload mapping; the item page through the cache attribute.
 */
describe('example host: payload mapping and cache attribute on /api/items', () => {
  const varDir = mkdtempSync(join(tmpdir(), 'api-host-var-'));
  const keys = securityConfigFromEnv({}, new MemoryLogger(), varDir);
  let host: BuiltHost;
  let token: string;

  beforeAll(async () => {
    host = await buildHostInProcess({
      JWT_SECRET_KEY: keys.privateKeyPath,
      JWT_PUBLIC_KEY: keys.publicKeyPath,
      JWT_PASSPHRASE: keys.passphrase!,
    });
    const issued = await host.client.post('/api/token', { json: { username: 'demo', password: 'demo-password' } });
    token = issued.json<{ token: string }>().token;
  });
  afterAll(() => host?.stop());

  const create = (body: string, withToken = true) =>
    host.client.post('/api/items', {
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(withToken ? { authorization: `Bearer ${token}` } : {}),
      },
      body,
    });

  it('creates a valid item and refuses an invalid one with a 422 problem document', async () => {
    const created = await create(JSON.stringify({ name: 'chair', quantity: 4 }));
    expect(created.status).toBe(201);
    const invalid = await create(JSON.stringify({ name: '', quantity: 'four' }));
    expect(invalid.status).toBe(422);
    expect(invalid.headers.get('content-type')).toBe('application/problem+json');
    expect(invalid.headers.get('cache-control')).toBe('no-cache, private');
    const problem = (await invalid.json()) as { violations: Array<{ path: string }> };
    expect(problem.violations.map((violation) => violation.path)).toEqual(['/name', '/quantity']);
  });

  it('refuses a client without a token before its body is read (401, not 400)', async () => {
    expect((await create('{not json', false)).status).toBe(401);
  });

  it('caches an item page and answers its revalidation with 304', async () => {
    const created = (await (await create(JSON.stringify({ name: 'table', quantity: 1 }))).json()) as { id: number };
    const shown = await host.client.get(`/api/items/${created.id}`);
    expect(shown.status).toBe(200);
    expect(shown.headers.get('cache-control')).toBe('max-age=30, public, stale-while-revalidate=30');
    const again = await host.client.get(`/api/items/${created.id}`, { headers: { 'if-none-match': shown.headers.get('etag')! } });
    expect(again.status).toBe(304);
    const missing = await host.client.get(`/api/items/999999`, { headers: { accept: 'application/json' } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('cache-control')).toBe('no-cache, private');
  });
  describe('GET /api/items/export', () => {
    const exportWith = (headers: Record<string, string> = {}) =>
      host.client.get('/api/items/export', { headers: { authorization: `Bearer ${token}`, ...headers } });

    it('refuses a client without a token', async () => {
      expect((await host.client.get('/api/items/export', { headers: { accept: 'application/json' } })).status).toBe(401);
    });

    it('downloads every item as JSON Lines of four members, with an ETag a second request revalidates (304)', async () => {
      expect((await create(JSON.stringify({ name: 'stool "tall"', quantity: 1 }))).status).toBe(201);
      const response = await exportWith();
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/jsonl; charset=utf-8');
      expect(response.headers.get('content-disposition')).toBe('attachment; filename=items.jsonl');
      expect(response.headers.get('accept-ranges')).toBe('none');
      const text = response.text();
      expect(text.endsWith('\n')).toBe(true);
      const lines = text
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      for (const line of lines) expect(Object.keys(line)).toEqual(['id', 'name', 'quantity', 'createdAt']);
      expect(lines.at(-1)).toMatchObject({ name: 'stool "tall"', quantity: 1 });
      const etag = response.headers.get('etag')!;
      expect(etag).toMatch(/^W\/"[\w-]+"$/);
      expect((await exportWith({ 'if-none-match': etag })).status).toBe(304);
    });

    it('streams the whole export over a socket (curl) even when a Range asks for one byte, and a new item changes the ETag', async () => {
      const wire = await host.client.socket();
      try {
        const full = await exportWith();
        const etag = full.headers.get('etag')!;
        const auth = ['-H', `Authorization: Bearer ${token}`];
        const part = await curl([...auth, '-r', '0-0', `${wire.serverUrl}/api/items/export`]);
        expect([part.status, part.headers['content-range'], part.headers['transfer-encoding'], part.body]).toEqual([
          200,
          undefined,
          'chunked',
          full.text(),
        ]);

        expect((await create(JSON.stringify({ name: 'shelf', quantity: 2 }))).status).toBe(201);
        const changed = await curl([...auth, '-H', `If-None-Match: ${etag}`, `${wire.serverUrl}/api/items/export`]);
        expect(changed.status).toBe(200);
        expect(changed.body).toContain('"name":"shelf"');
        expect(changed.headers['etag']).not.toBe(etag);
      } finally {
        await wire.close();
      }
    });
  });
});
