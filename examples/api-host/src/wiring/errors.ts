import { ErrorListener } from '@switchboard/error-controller';
import { DisallowRobotsIndexingListener } from '@switchboard/http-kernel';
import type { HostContext, Wiring } from './wiring.js';

/**
 * Error responses: the error listener logs each error on the
 * `request` channel and renders it through the error sub-request (HTML, problem+json or text by
 * `Accept`; full page and `x-debug-exception*` headers in debug mode). Response defaults:
 * `cache-control: no-cache, private` when nothing else set caching, and `x-robots-tag: noindex`
 * while debug is on.
 */
export function wireErrors(host: HostContext): Wiring {
  return {
    subscribers: [
      new ErrorListener({ debug: host.debug, logger: host.logger }),
      ...(host.debug ? [new DisallowRobotsIndexingListener()] : []),
    ],
  };
}
