import { ErrorListener } from '@switchboard/error-controller';
import {
  DefaultCacheControlListener,
  DisallowRobotsIndexingListener,
  type EventDispatcher,
  type KernelEventMap,
  type Logger,
} from '@switchboard/http-kernel';

/** What the error wiring needs from the app. */
export interface ErrorsHost {
  dispatcher: EventDispatcher<KernelEventMap>;
  debug: boolean;
  logger?: Logger;
}

/**
 * Error responses: the error listener logs each error on the
 * `request` channel and renders it through the error sub-request (HTML, problem+json or text by
 * `Accept`; full page and `x-debug-exception*` headers in debug mode). Response defaults:
 * `cache-control: no-cache, private` when nothing else set caching, and `x-robots-tag: noindex`
 * while debug is on (or when `disallowIndexing` says so).
 */
export function wireErrors(host: ErrorsHost, options: { disallowIndexing?: boolean } = {}): void {
  host.dispatcher.addSubscriber(new ErrorListener({ debug: host.debug, ...(host.logger === undefined ? {} : { logger: host.logger }) }));
  host.dispatcher.addSubscriber(new DefaultCacheControlListener());
  if (options.disallowIndexing ?? host.debug) host.dispatcher.addSubscriber(new DisallowRobotsIndexingListener());
}
