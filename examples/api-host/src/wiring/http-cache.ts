import { CacheAttributeListener } from '@switchboard/http-cache';
import type { EventDispatcher, KernelEventMap } from '@switchboard/http-kernel';

/** What the cache wiring needs from the app. */
export interface HttpCacheHost {
  dispatcher: EventDispatcher<KernelEventMap>;
}

/**
 * The cache attribute (kernel.controller_arguments 10, kernel.response −10): routes
 * declaring `_cache` get their Cache-Control, Vary and validators, and 304 answers to conditional
 * GETs; error responses keep `no-cache, private`.
 */
export function wireHttpCache(host: HttpCacheHost): void {
  host.dispatcher.addSubscriber(new CacheAttributeListener());
}
