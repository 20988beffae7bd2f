import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jwtKeyEnv, startHostInProcess, type StartedHost } from './support/start-host.js';

/**
 * The items API's formats over a real socket, the host wired as main.ts wires it: controllers
 * return data, the view layer writes it as the client's `Accept` asks among the route's formats.
 */
describe('example host: /api/items formats', () => {
  const varDir = mkdtempSync(join(tmpdir(), 'api-host-var-'));
  let host: StartedHost;
  let base: string;
  let token: string;

  beforeAll(async () => {
    host = await startHostInProcess({
      PGLITE_DATA_DIR: 'memory://',
      ...jwtKeyEnv(varDir),
    });
    base = host.running.url;
    const issued = await fetch(`${base}/api/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'demo', password: 'demo-password' }),
    });
    token = ((await issued.json()) as { token: string }).token;
    for (const name of ['lamp', 'desk']) {
      const created = await fetch(`${base}/api/items`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ name, quantity: 1 }),
      });
      expect(created.status).toBe(201);
    }
  });
  afterAll(async () => {
    await host?.stop();
    rmSync(varDir, { recursive: true, force: true });
  });

  const list = (accept?: string) => fetch(`${base}/api/items`, accept === undefined ? {} : { headers: { accept } });

  it('answers JSON by default, varying on Accept', async () => {
    for (const accept of [undefined, '*/*', 'application/json']) {
      const response = await list(accept);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(response.headers.get('vary')).toMatch(/\bAccept\b/);
      const items = (await response.json()) as Array<{ name: string }>;
      expect(items.map((item) => item.name)).toEqual(expect.arrayContaining(['lamp', 'desk']));
    }
  });

  it('answers NDJSON, one item a line, for Accept: application/x-ndjson', async () => {
    const response = await list('application/x-ndjson');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-ndjson');
    expect(response.headers.get('vary')).toMatch(/\bAccept\b/);
    const text = await response.text();
    expect(text.endsWith('\n')).toBe(true);
    const lines = text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { name: string });
    expect(lines.map((item) => item.name)).toEqual(expect.arrayContaining(['lamp', 'desk']));
    // Each line is an item as JSON answers it, undeclared members dropped alike.
    expect(lines).toEqual(await (await list()).json());
  });

  it('refuses Accept: application/xml with a 406 problem document listing the offered types', async () => {
    const response = await list('application/xml');
    expect(response.status).toBe(406);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.headers.get('vary')).toMatch(/\bAccept\b/);
    const problem = (await response.json()) as { status: number; available: string[] };
    expect(problem.status).toBe(406);
    expect(problem.available).toEqual(['application/json', 'application/x-ndjson']);
  });

  it('still answers an item page and a creation in JSON', async () => {
    const created = await fetch(`${base}/api/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, accept: 'application/json' },
      body: JSON.stringify({ name: 'chair', quantity: 2 }),
    });
    expect(created.status).toBe(201);
    const item = (await created.json()) as { id: number };
    expect(created.headers.get('location')).toBe(`/api/items/${item.id}`);
    const shown = await fetch(`${base}/api/items/${item.id}`);
    expect(shown.headers.get('content-type')).toBe('application/json');
    expect(await shown.json()).toEqual(item);
  });

  it('creates an item from a gzip-encoded JSON body, and refuses a coding it does not read with 415', async () => {
    const post = (body: Uint8Array, coding: string) =>
      fetch(`${base}/api/items`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-encoding': coding,
          authorization: `Bearer ${token}`,
          accept: 'application/json',
        },
        body,
      });
    const created = await post(gzipSync(JSON.stringify({ name: 'zipped', quantity: 5 })), 'gzip');
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ name: 'zipped', quantity: 5 });
    const refused = await post(Buffer.from('{}'), 'compress');
    expect(refused.status).toBe(415);
    expect(refused.headers.get('accept-encoding')).toBe('gzip, deflate, br');
  });
});
