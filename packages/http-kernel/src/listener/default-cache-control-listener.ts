import type { EventSubscriber, SubscribedEvents } from '../dispatcher/types.js';
import type { KernelEventMap } from '../event/kernel-events.js';
import type { ResponseEvent } from '../event/response-event.js';

/** The directives that already say who may cache; without one of them `private` is added. */
const SCOPE_DIRECTIVES = new Set(['public', 'private', 's-maxage']);
const DEFAULT = 'no-cache, private';
const DEFAULT_VALIDATED = 'private, must-revalidate';

/**
 * Gives every response a Cache-Control, as Symfony's response header bag does on its own:
 * none set → `no-cache, private` (or `private, must-revalidate` when `Last-Modified` or `Expires`
 * is present); directives set without a scope (`public`, `private`, `s-maxage`) → `private` added.
 * A response is therefore never cacheable by shared caches unless something said so on purpose.
 */
export class DefaultCacheControlListener implements EventSubscriber<KernelEventMap> {
  /**
   * After the listeners that may set caching headers (`CacheAttributeListener.RESPONSE_PRIORITY`,
   * `CorsListener.CACHEABLE_VARY_PRIORITY`), and before `ProfilerTokenListener.RESPONSE_PRIORITY`
   * records the response, so the profile shows what the client gets.
   */
  static readonly RESPONSE_PRIORITY = -32;

  getSubscribedEvents(): SubscribedEvents<KernelEventMap> {
    return {
      // A sub-request's response reaches the client only through its main request's kernel.response.
      'kernel.response': [this.onKernelResponse, DefaultCacheControlListener.RESPONSE_PRIORITY, { mainRequestOnly: true }],
    };
  }

  onKernelResponse(event: ResponseEvent): void {
    const headers = event.response.headers;
    const current = headers.has('cache-control') ? headers.getAll('cache-control').join(', ').trim() : '';
    if (current === '') {
      const validated = headers.has('last-modified') || headers.has('expires');
      headers.set('cache-control', validated ? DEFAULT_VALIDATED : DEFAULT);
      return;
    }
    // One of our own defaults: already right.
    if (current === DEFAULT || current === DEFAULT_VALIDATED) return;
    const names = current.split(',').map((directive) => directive.split('=')[0]!.trim().toLowerCase());
    if (!names.some((name) => SCOPE_DIRECTIVES.has(name))) headers.set('cache-control', `${current}, private`);
  }
}
