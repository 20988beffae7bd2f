import { DEFAULT_EVENT_STREAMS_PER_KEY, DEFAULT_EVENT_STREAMS_TOTAL, EventStreamCaps } from '@switchboard/http-kernel/sse';
import { defineResponses } from '@switchboard/openapi';
import { RouteCollection } from '@switchboard/router';
import { IS_AUTHENTICATED } from '@switchboard/security';
import { ConfigError } from '../config.js';
import type { Database } from '../database/open-database.js';
import { ItemChangeFeed } from '../items/item-change-feed.js';
import { itemEventsController } from '../items/item-events-controller.js';
import type { HostContext, Wiring } from './wiring.js';

/**
 * `GET /api/items/events` for authenticated users: item changes as Server-Sent Events, from every
 * worker and instance sharing the database (PostgreSQL `LISTEN/NOTIFY`, or PGlite's in process).
 * At most `EVENT_STREAMS_PER_USER` streams per user (429 past it) and `EVENT_STREAMS_TOTAL` per
 * process (503). Listed after the database wiring, so that it stops listening before the database closes.
 */
export async function wireItemEvents(host: Pick<HostContext, 'env'>, database: Database): Promise<Wiring> {
  const caps = new EventStreamCaps({
    perKey: streamCount(host.env, 'EVENT_STREAMS_PER_USER', DEFAULT_EVENT_STREAMS_PER_KEY),
    total: streamCount(host.env, 'EVENT_STREAMS_TOTAL', DEFAULT_EVENT_STREAMS_TOTAL),
  });
  const feed = new ItemChangeFeed(database.connection);
  const stopListening = await feed.start((channel, onNotification) => database.listen(channel, onNotification));
  const routes = new RouteCollection();
  routes.add('items_events', '/api/items/events', {
    methods: 'GET',
    controller: itemEventsController(feed, caps),
    defaults: {
      _is_granted: IS_AUTHENTICATED,
      // Compressed for clients that ask, flushed per event (CompressionListener).
      _compression: { eventStream: true },
      _responses: defineResponses({
        200: {
          description:
            'A `text/event-stream` of item changes: `created` and `deleted` events with the item as JSON data and the change id as event id; send `Last-Event-ID` to resume (a `reset` event says the changes since are no longer kept). The stream ends with a `retry:` hint when the token expires.',
        },
        429: { description: 'This user has as many event streams open as allowed (`Retry-After`).' },
        503: { description: 'The server has as many event streams open as it takes (`Retry-After`).' },
      }),
    },
  });
  return { routes, onShutdown: () => stopListening().catch(() => undefined) };
}

function streamCount(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim() ?? '';
  if (raw === '') return fallback;
  const count = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(count) || count < 1) {
    throw new ConfigError(`${name} must be a whole number above 0, got "${raw}".`);
  }
  return count;
}
