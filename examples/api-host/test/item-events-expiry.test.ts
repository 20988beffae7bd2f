import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '@switchboard/node-adapter';
import type { App } from '../src/app.js';
import { ItemChangeFeed } from '../src/items/item-change-feed.js';
import { itemEvents, MAX_QUEUED_CHANGES } from '../src/items/item-events-controller.js';
import { startHostInProcess, type StartedHost } from './support/start-host.js';
import { pgliteDataFolder, type PgliteDataFolder } from '../../../test/kit/services/pglite-data.js';
import { StreamReader } from '../../../test/kit/services/event-feed.js';

/** Tokens live 3 s here, so that a stream reaches its token's expiry within the test. */
let folder: PgliteDataFolder;
let host: StartedHost;
let app: App;
let server: RunningServer;

beforeAll(async () => {
  folder = await pgliteDataFolder();
  host = await startHostInProcess({ APP_DEBUG: '0', ALLOW_DEMO_USERS: '1', PGLITE_DATA_DIR: folder.path, JWT_TTL: '3' });
  ({ app, running: server } = host);
});

afterAll(async () => {
  await host?.stop();
  await folder?.remove();
});

describe('item event streams and their bounds', () => {
  it('ends a stream with a retry hint when its token expires', async () => {
    const token = await app.tokenIssuer!.issueToken({ identifier: 'ada', roles: ['ROLE_USER'] });
    const response = await fetch(`${server.url}/api/items/events`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    // Ends on its own (no event comes): the whole stream is the opening comment, heartbeats, and the hint.
    const text = await new StreamReader(response.body!).rest();
    expect(text.startsWith(':\n\n')).toBe(true);
    expect(text.endsWith('retry: 1000\n\n')).toBe(true);
  });

  it('drops a subscriber that fell more than the queue limit behind while its client did not read', async () => {
    const feed = new ItemChangeFeed(app.database.connection);
    const stopListening = await feed.start((channel, onNotification) => app.database.listen(channel, onNotification));
    const client = new AbortController();
    const events = itemEvents(feed, { lastEventId: null, signal: client.signal });
    try {
      const first = events.next();
      await app.database.connection.query(`INSERT INTO items (name, quantity) VALUES ('first', 1)`);
      expect((await first).done).toBe(false);
      expect(feed.subscribers).toBe(1);
      // The consumer stops asking (a client that stopped reading) while many more changes come, in
      // batches the feed reads in full (the table keeps only the newest 1,000 changes).
      for (let batch = 0; batch < 3; batch += 1) {
        await app.database.connection.query(
          `INSERT INTO items (name, quantity) SELECT 'item ' || n, 1 FROM generate_series(1, ${MAX_QUEUED_CHANGES / 2}) AS n`,
        );
        const { rows } = await app.database.connection.query<{ latest: number }>('SELECT max(id) AS latest FROM item_changes');
        const deadline = Date.now() + 60_000;
        while (feed.latest < rows[0]!.latest && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
        expect(feed.latest).toBe(rows[0]!.latest);
      }
      // Let go as soon as it fell behind, not when the stream resumes; then the stream ends.
      expect(feed.subscribers).toBe(0);
      expect((await events.next()).done).toBe(true);
    } finally {
      client.abort();
      await events.return(undefined);
      await stopListening();
    }
  });
});
