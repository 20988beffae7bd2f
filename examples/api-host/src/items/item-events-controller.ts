import { defineController, type Request } from '@switchboard/http-kernel';
import { EventStreamResponse, type EventStreamCaps, type ServerSentEvent } from '@switchboard/http-kernel/sse';
import { credentialsExpireAt, currentUser } from '@switchboard/security';
import type { ItemChange, ItemChangeFeed } from './item-change-feed.js';

/** A stream this many changes behind its client ends; the client reconnects and resumes from the table. */
export const MAX_QUEUED_CHANGES = 1_000;

/**
 * `GET /api/items/events`: item changes as Server-Sent Events (`created`, `deleted`; the item as
 * JSON data; the change id as event id). A client that reconnects with `Last-Event-ID` first gets
 * what it missed, or a `reset` event when that is older than the kept changes. Each stream counts
 * against its user's and the server's caps (429 or 503 past them), and ends with a `retry:` hint
 * when the token that opened it expires.
 */
export function itemEventsController(feed: ItemChangeFeed, caps: EventStreamCaps) {
  return defineController(['request'], (request: Request) => {
    // The route admits authenticated users only.
    const user = currentUser(request)!;
    const expiresAt = credentialsExpireAt(request);
    return caps.open(
      user.identifier,
      () => new EventStreamResponse(request, (context) => itemEvents(feed, context), expiresAt === null ? {} : { expiresAt }),
    );
  });
}

/** The changes for one stream: what it missed first, then each new one as the feed hands it over. */
export async function* itemEvents(
  feed: ItemChangeFeed,
  { lastEventId, signal }: { lastEventId: string | null; signal: AbortSignal },
): AsyncGenerator<ServerSentEvent> {
  const queue: ItemChange[] = [];
  let wake: (() => void) | null = null;
  let fellBehind = false;
  // Subscribed before catching up, so that nothing written meanwhile is lost (duplicates are skipped by id).
  // Bounded here, as changes arrive: while the client does not read, this generator does not run.
  const unsubscribe = feed.subscribe((change) => {
    if (queue.length >= MAX_QUEUED_CHANGES) {
      fellBehind = true;
      queue.length = 0;
      unsubscribe();
    } else queue.push(change);
    wake?.();
  });
  try {
    const resumeFrom = lastEventId !== null && /^[0-9]{1,9}$/.test(lastEventId) ? Number(lastEventId) : null;
    let sent = resumeFrom ?? feed.latest;
    if (resumeFrom !== null) {
      const missed = await feed.since(resumeFrom);
      if (missed === null) yield { event: 'reset', data: { detail: 'Changes were missed: reload the list.' } };
      for (const change of missed ?? []) {
        yield eventOf(change);
        sent = change.id;
      }
    }
    while (!signal.aborted && !fellBehind) {
      const change = queue.shift();
      if (change !== undefined) {
        if (change.id > sent) {
          yield eventOf(change);
          sent = change.id;
        }
        continue;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
        signal.addEventListener('abort', () => resolve(), { once: true });
      });
      wake = null;
    }
  } finally {
    unsubscribe();
  }
}

function eventOf(change: ItemChange): ServerSentEvent {
  return { id: String(change.id), event: change.kind, data: change.item };
}
