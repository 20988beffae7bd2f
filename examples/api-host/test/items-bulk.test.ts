import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteDataFolder, type PgliteDataFolder } from '../../../test/kit/services/pglite-data.js';
import { ITEMS_EXPORT_PAGE } from '../src/items/item-export.js';
import { ITEM_EXPORTS_RATE_LIMIT } from '../src/wiring/item-export.js';
import { itemImportMaxBytes } from '../src/wiring/item-import.js';
import { loginToken } from './support/clients.js';
import { jwtKeyEnv, startHostProcess, type HostProcess } from './support/start-host.js';

/**
 * Bulk item traffic against the host process, on each database: an import of the largest file the
 * host takes is stored whole while `/health` keeps answering, and the export streams every item
 * (more than ten pages of them) and is limited per user.
 */
const scratch = mkdtempSync(join(tmpdir(), 'api-host-bulk-'));
const keyEnv = jwtKeyEnv(scratch);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A JSON Lines file just under the default import limit: about 34,000 short items. */
function largestImportFile(): { text: string; count: number } {
  const limit = itemImportMaxBytes({});
  const lines: string[] = [];
  let bytes = 0;
  for (;;) {
    const line = `${JSON.stringify({ name: `item ${lines.length}`, quantity: lines.length % 7 })}\n`;
    if (bytes + line.length > limit) return { text: lines.join(''), count: lines.length };
    lines.push(line);
    bytes += line.length;
  }
}

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
  const file = largestImportFile();

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

  it('imports a file of the largest size whole, answering /health all along', async () => {
    expect(file.count).toBeGreaterThan(30_000);
    const form = new FormData();
    form.set('file', new File([file.text], 'items.jsonl', { type: 'application/jsonl' }));
    let finished = false;
    const imported = fetch(`${base}/api/items/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, accept: 'application/json' },
      body: form,
    }).finally(() => (finished = true));
    // Health checks one after another for as long as the import runs (bounded in count).
    let answeredDuringImport = 0;
    for (let round = 0; round < 100_000 && !finished; round++) {
      const health = await fetch(`${base}/health`);
      expect(health.status).toBe(200);
      await health.arrayBuffer();
      if (!finished) answeredDuringImport++;
    }
    const response = await imported;
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ imported: file.count });
    // The import took turns with them: the event loop was never held for the whole import.
    expect(answeredDuringImport).toBeGreaterThanOrEqual(3);
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
