import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '@switchboard/node-adapter';
import type { App } from '../src/app.js';
import { startHostInProcess, type StartedHost } from './support/start-host.js';
import { pgliteDataFolder, type PgliteDataFolder } from '../../../test/kit/services/pglite-data.js';
import { StreamReader } from '../../../test/kit/services/event-feed.js';

/**
 * On the embedded database, whose `LISTEN` runs in the host's process; the cluster test covers the
 * same events through a PostgreSQL server's `NOTIFY` across workers.
 */
let folder: PgliteDataFolder;
let host: StartedHost;
let app: App;
let server: RunningServer;
let userToken: string;
let adminToken: string;

beforeAll(async () => {
  folder = await pgliteDataFolder();
  host = await startHostInProcess({
    APP_DEBUG: '0',
    ALLOW_DEMO_USERS: '1',
    PGLITE_DATA_DIR: folder.path,
    EVENT_STREAMS_PER_USER: '2',
    EVENT_STREAMS_TOTAL: '3',
  });
  ({ app, running: server } = host);
  userToken = await app.tokenIssuer!.issueToken({ identifier: 'ada', roles: ['ROLE_USER'] });
  adminToken = await app.tokenIssuer!.issueToken({ identifier: 'root', roles: ['ROLE_USER', 'ROLE_ADMIN'] });
});

afterAll(async () => {
  await host?.stop();
  await folder?.remove();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}`, accept: 'application/json' });

async function openEvents(headers: Record<string, string>): Promise<StreamReader> {
  const response = await fetch(`${server.url}/api/items/events`, { headers });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  const reader = new StreamReader(response.body!);
  await reader.until((text) => text.startsWith(':\n\n'));
  return reader;
}

describe('GET /api/items/events', () => {
  it('needs a token', async () => {
    const response = await fetch(`${server.url}/api/items/events`, { headers: { accept: 'application/json' } });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    await response.arrayBuffer();
  });

  it('streams created and deleted items, and a reconnecting client gets what it missed', async () => {
    const reader = await openEvents(bearer(userToken));
    const created = await fetch(`${server.url}/api/items`, {
      method: 'POST',
      headers: { ...bearer(userToken), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'lamp', quantity: 3 }),
    });
    const item = (await created.json()) as { id: number };
    const text = await reader.until((seen) => seen.includes('event: created\n'));
    const createdId = /id: (\d+)\nevent: created\n/.exec(text)![1]!;
    expect(text).toContain(`"id":${item.id},"name":"lamp","quantity":3`);
    await reader.cancel();

    // Deleted while nobody listened: the client resumes after the last id it saw.
    const deleted = await fetch(`${server.url}/api/items/${item.id}`, { method: 'DELETE', headers: bearer(adminToken) });
    expect(deleted.status).toBe(204);
    const resumed = await openEvents({ ...bearer(userToken), 'last-event-id': createdId });
    const missed = await resumed.until((seen) => seen.includes('event: deleted\n'));
    expect(missed).toMatch(new RegExp(`id: ${Number(createdId) + 1}\\nevent: deleted\\ndata: \\{"id":${item.id},"name":"lamp"`));
    await resumed.cancel();
  });

  // Last: the streams it opens fill the caps.
  it('caps the streams per user (429) and in all (503), each with Retry-After', async () => {
    const tokenOf = (identifier: string) => app.tokenIssuer!.issueToken({ identifier, roles: ['ROLE_USER'] });
    const [first, second, third] = await Promise.all([tokenOf('cap-first'), tokenOf('cap-second'), tokenOf('cap-third')]);
    const open = [await openEvents(bearer(first!)), await openEvents(bearer(first!))];
    try {
      const perUser = await fetch(`${server.url}/api/items/events`, { headers: bearer(first!) });
      expect(perUser.status).toBe(429);
      expect(perUser.headers.get('retry-after')).toBe('5');
      await perUser.arrayBuffer();

      open.push(await openEvents(bearer(second!)));
      const inAll = await fetch(`${server.url}/api/items/events`, { headers: bearer(third!) });
      expect(inAll.status).toBe(503);
      expect(inAll.headers.get('retry-after')).toBe('5');
      await inAll.arrayBuffer();
    } finally {
      await Promise.all(open.map((reader) => reader.cancel()));
    }
  });
});
