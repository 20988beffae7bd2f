import { defineResponses } from '@switchboard/openapi';
import { RouteCollection } from '@switchboard/router';
import { IS_AUTHENTICATED } from '@switchboard/security';
import type { Database } from '../database/open-database.js';
import { ItemChangeFeed } from '../items/item-change-feed.js';
import { itemEventsController } from '../items/item-events-controller.js';
import type { Wiring } from './wiring.js';

/**
 * `GET /api/items/events` for authenticated users: item changes as Server-Sent Events, from every
 * worker and instance sharing the database (PostgreSQL `LISTEN/NOTIFY`, or PGlite's in process).
 * Listed after the database wiring, so that it stops listening before the database closes.
 */
export async function wireItemEvents(database: Database): Promise<Wiring> {
  const feed = new ItemChangeFeed(database.connection);
  const stopListening = await feed.start((channel, onNotification) => database.listen(channel, onNotification));
  const routes = new RouteCollection();
  routes.add('items_events', '/api/items/events', {
    methods: 'GET',
    controller: itemEventsController(feed),
    defaults: {
      _is_granted: IS_AUTHENTICATED,
      _responses: defineResponses({
        200: {
          description:
            'A `text/event-stream` of item changes: `created` and `deleted` events with the item as JSON data and the change id as event id; send `Last-Event-ID` to resume (a `reset` event says the changes since are no longer kept).',
        },
      }),
    },
  });
  return { routes, onShutdown: () => stopListening().catch(() => undefined) };
}
