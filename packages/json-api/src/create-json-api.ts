import { CorsListener, type CorsConfig } from '@switchboard/cors';
import {
  createErrorController,
  ErrorListener,
  HtmlErrorRenderer,
  ProblemJsonErrorRenderer,
  TextErrorRenderer,
} from '@switchboard/error-controller';
import { CacheAttributeListener } from '@switchboard/http-cache';
import {
  ArgumentResolver,
  DefaultCacheControlListener,
  EventDispatcher,
  HttpKernel,
  type KernelEventMap,
  type Logger,
} from '@switchboard/http-kernel';
import { RequestPayloadValueResolver } from '@switchboard/payload';
import { RouteRateLimitListener, type RouteRateLimitListenerOptions } from '@switchboard/rate-limit';
import { type RouteCollection, Router, RouterListener } from '@switchboard/router';
import { FirewallListener, type FirewallMap, IsGrantedListener, SameOriginListener, StatelessCheckListener } from '@switchboard/security';

export interface JsonApiOptions {
  routes: RouteCollection;
  /** Error pages with traces, the router's 404 with its stack. Never on in production. Default false. */
  debug?: boolean;
  /** Where the error listener, the firewall and the stateless check write. Default: CRITICAL records on stderr. */
  logger?: Logger;
  /** Authentication, with `_is_granted`, `_same_origin` and `_stateless` enforced on its routes. */
  firewalls?: FirewallMap;
  /** Cross-origin rules (`CorsListener`); without them, no CORS headers are sent. */
  cors?: CorsConfig;
  /** The store (and keys) of the routes' `_rate_limit` declarations (`RouteRateLimitListener`). */
  rateLimit?: RouteRateLimitListenerOptions;
}

export interface JsonApi {
  kernel: HttpKernel;
  /** The kernel's dispatcher, for the app's own listeners. */
  dispatcher: EventDispatcher<KernelEventMap>;
}

/**
 * A kernel wired as a JSON API: the router; errors as problem+json, also for `Accept: *\/*` and a
 * request without `Accept` (a browser asking for HTML still gets the HTML page); `mapPayload`
 * arguments; `_cache` declarations and `Cache-Control: no-cache, private` where none is set; and,
 * when their options are given, the firewall with its three route-default listeners, CORS and
 * route rate limits. Every listener keeps its own priority.
 */
export function createJsonApi(options: JsonApiOptions): JsonApi {
  const debug = options.debug ?? false;
  const logger = options.logger;
  const dispatcher = new EventDispatcher<KernelEventMap>();
  const payload = new RequestPayloadValueResolver();
  dispatcher
    .addSubscriber(new RouterListener(new Router(options.routes), { debug }))
    .addSubscriber(new ErrorListener({ debug, ...(logger ? { logger } : {}), controller: problemJsonFirst(debug) }))
    .addSubscriber(payload)
    .addSubscriber(new CacheAttributeListener())
    .addSubscriber(new DefaultCacheControlListener());
  if (options.firewalls !== undefined) {
    dispatcher
      .addSubscriber(new FirewallListener(options.firewalls, logger ? { logger } : {}))
      .addSubscriber(new IsGrantedListener())
      .addSubscriber(new SameOriginListener())
      .addSubscriber(new StatelessCheckListener({ debug, ...(logger ? { logger } : {}) }));
  }
  if (options.cors !== undefined) dispatcher.addSubscriber(new CorsListener(options.cors));
  if (options.rateLimit !== undefined) dispatcher.addSubscriber(new RouteRateLimitListener(options.rateLimit));
  const argumentResolver = new ArgumentResolver([payload]);
  return { kernel: new HttpKernel({ dispatcher, argumentResolver, ...(logger ? { logger } : {}) }), dispatcher };
}

/** The error controller with problem+json first: the format for a missing `Accept` or `*\/*`. */
function problemJsonFirst(debug: boolean) {
  return createErrorController({
    debug,
    renderers: [new ProblemJsonErrorRenderer({ debug }), new HtmlErrorRenderer({ debug }), new TextErrorRenderer({ debug })],
  });
}
