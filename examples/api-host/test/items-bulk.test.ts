import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteDataFolder, type PgliteDataFolder } from '../../../test/kit/services/pglite-data.js';
import { ITEMS_EXPORT_PAGE } from '../src/items/item-export.js';
import { ITEM_EXPORTS_RATE_LIMIT } from '../src/wiring/item-export.js';
import { loginToken } from './support/clients.js';
import { jwtKeyEnv, startHostProcess, type HostProcess } from './support/start-host.js';
import { largestImportFile } from '../../../test/kit/largest-import-file.js';
import { itemImportMaxBytes } from '../src/wiring/item-import.js';

/**
 * Bulk item traffic against the host process, on each database: an import of the largest file the
 * host takes is stored whole, invisible until complete, while other requests are answered, and the export streams every item
 * (more than ten pages of them) and is limited per user.
 */
const scratch = mkdtempSync(join(tmpdir(), 'api-host-bulk-'));
const keyEnv = jwtKeyEnv(scratch);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const DATABASES = [
  { name: 'embedded PGlite', folder: true },
  { name: 'PostgreSQL', folder: false },
] as const;

describe.each(DATABASES)('on $name', ({ folder: embedded }) => {
  let folder: PgliteDataFolder | undefined;
  let host: HostProcess;
  let base: string;
  let adminToken: string;
  let demoToken: string;
  const file = largestImportFile(itemImportMaxBytes({}));

  beforeAll(async () => {
    folder = embedded ? await pgliteDataFolder() : undefined;
    host = await startHostProcess({
      APP_DEBUG: '0',
      ...(folder === undefined ? {} : { PGLITE_DATA_DIR: folder.path }),
      ...keyEnv,
    });
    base = await host.url;
    adminToken = await loginToken(base, 'admin');
    demoToken = await loginToken(base, 'demo');
    // Only a guard against a hang: a start on a busy machine can take minutes.
  }, 300_000);

  afterAll(async () => {
    if (host !== undefined && host.child.exitCode === null) host.child.kill('SIGTERM');
    await host?.exited;
    await folder?.remove();
  });

  it('imports a file of the largest size whole, serving other database requests between its statements', async () => {
    expect(file.count).toBeGreaterThan(30_000);
    const auth = (token: string) => ({ authorization: `Bearer ${token}`, accept: 'application/json' });
    // Items created by a probe get the next ids of the items' sequence, as the import's rows do: a
    // gap between two probes' ids is rows the import stored between them.
    const probe = async (token: string): Promise<number | null> => {
      const created = await fetch(`${base}/api/items`, {
        method: 'POST',
        headers: { ...auth(token), 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'probe', quantity: 1 }),
      });
      const body = (await created.json().catch(() => ({}))) as { id?: number };
      return created.status === 201 ? body.id! : null;
    };
    const probes: number[] = [];
    const first = (await probe(demoToken))!;
    probes.push(first);

    const form = new FormData();
    form.set('file', new File([file.text], 'items.jsonl', { type: 'application/jsonl' }));
    const answers: string[] = [];
    const imported = fetch(`${base}/api/items/import`, { method: 'POST', headers: auth(adminToken), body: form }).then((response) => {
      answers.push('import');
      return response;
    });
    let finished = false;
    void imported.finally(() => (finished = true));

    // Probes one after another (two users' write buckets), until one shows that the import has
    // stored rows and most of its rows are still to come; then the reads under test are sent.
    let staged: number | null = null;
    let reads: Promise<void> | undefined;
    for (let round = 0; round < 100 && !finished && reads === undefined; round++) {
      const id = await probe(round % 2 === 0 ? demoToken : adminToken);
      if (id === null) continue;
      const storedBefore = id - probes.at(-1)! - 1;
      probes.push(id);
      if (storedBefore === 0 || id - first > file.count / 2) continue;
      staged = id - 1;
      reads = Promise.all([
        fetch(`${base}/api/items`).then(async (response) => {
          answers.push('items');
          expect(response.status).toBe(200);
          // Readers see none of an import until all of it is stored.
          expect((await response.json()) as Array<{ name: string }>).not.toContainEqual(expect.objectContaining({ name: 'item 0' }));
        }),
        fetch(`${base}/api/items/${id - 1}`, { headers: { accept: 'application/json' } }).then(async (response) => {
          answers.push('staged item');
          expect(response.status).toBe(404);
          await response.arrayBuffer();
        }),
        fetch(`${base}/health`).then(async (response) => {
          answers.push('health');
          expect(response.status).toBe(200);
          await response.arrayBuffer();
        }),
      ]).then(() => undefined);
      // Awaited after the import; a failed expectation in it is reported then.
      reads.catch(() => undefined);
    }
    const response = await imported;
    await reads;
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ imported: file.count });
    // Sent while the import was storing its rows, and answered before it finished: the import
    // never held the database (on PGlite, one session) for longer than one of its statements.
    expect(staged).not.toBeNull();
    expect(answers).toHaveLength(4);
    expect(answers.at(-1)).toBe('import');
    // Published whole: the staged item is there now.
    expect((await fetch(`${base}/api/items/${staged}`)).status).toBe(200);
    for (const id of probes) {
      const deleted = await fetch(`${base}/api/items/${id}`, { method: 'DELETE', headers: auth(adminToken) });
      expect(deleted.status).toBe(204);
    }
  }, 150_000); // Only a guard against a hang (one statement held a PGlite host for minutes).

  it('streams an export of every item, more than ten pages of them, with a weak ETag answered 304', async () => {
    const response = await fetch(`${base}/api/items/export`, { headers: { authorization: `Bearer ${demoToken}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBeNull();
    expect(response.headers.get('accept-ranges')).toBe('none');
    const lines = (await response.text()).trimEnd().split('\n');
    expect(lines.length).toBe(file.count);
    expect(lines.length).toBeGreaterThan(10 * ITEMS_EXPORT_PAGE);
    const ids = lines.map((line) => (JSON.parse(line) as { id: number }).id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ name: `item ${file.count - 1}` });

    const etag = response.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"/);
    const current = await fetch(`${base}/api/items/export`, { headers: { authorization: `Bearer ${demoToken}`, 'if-none-match': etag } });
    expect(current.status).toBe(304);
  });

  it('limits exports per user: past the limit a user gets 429 with Retry-After; other users are served', async () => {
    const current = await fetch(`${base}/api/items/export`, { method: 'HEAD', headers: { authorization: `Bearer ${demoToken}` } });
    expect(current.status).toBe(200);
    const etag = current.headers.get('etag')!;
    // At once, so that the bucket has no time to refill; revalidations, so that each costs one query.
    const attempts = 2 * ITEM_EXPORTS_RATE_LIMIT.limit;
    const answers = await Promise.all(
      Array.from({ length: attempts }, () =>
        fetch(`${base}/api/items/export`, {
          headers: { authorization: `Bearer ${adminToken}`, 'if-none-match': etag, accept: 'application/json' },
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status !== 304 && status !== 429)).toEqual([]);
    expect(statuses.filter((status) => status === 304).length).toBeGreaterThanOrEqual(1);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(1);
    for (const answer of answers) if (answer.status === 429) expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    await Promise.all(answers.map((answer) => answer.arrayBuffer()));
    const other = await fetch(`${base}/api/items/export`, { headers: { authorization: `Bearer ${demoToken}`, 'if-none-match': etag } });
    expect(other.status).toBe(304);
  });
});
