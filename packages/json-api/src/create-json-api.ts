import { CorsListener, type CorsConfig } from '@switchboard/cors';
import { ErrorListener, type StatusLogLevels } from '@switchboard/error-controller';
import { CacheAttributeListener } from '@switchboard/http-cache';
import { ArgumentResolver, EventDispatcher, HttpKernel, type KernelEventMap, type Logger } from '@switchboard/http-kernel';
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
  /** The level each error status is logged at. Default `API_LOG_LEVELS`: a 4xx at INFO without a stack, a 5xx at ERROR with it. */
  logLevels?: StatusLogLevels;
  /** Authentication, with `_is_granted`, `_same_origin` and `_stateless` enforced on its routes. */
  firewalls?: FirewallMap;
  /** Cross-origin rules (`CorsListener`); without them, no CORS headers are sent. */
  cors?: CorsConfig;
  /** The store (and keys) of the routes' `_rate_limit` declarations (`RouteRateLimitListener`). */
  rateLimit?: RouteRateLimitListenerOptions;
}

/** An expected refusal (4xx) is worth a line, not an alarm; a fault (5xx) is an error with its stack. */
export const API_LOG_LEVELS: StatusLogLevels = { '4xx': 'info', '5xx': 'error' };

export interface JsonApi {
  kernel: HttpKernel;
  /** The kernel's dispatcher, for the app's own listeners. */
  dispatcher: EventDispatcher<KernelEventMap>;
}

/**
 * A kernel wired as a JSON API: the router; errors as problem+json, also for `Accept: *\/*` and a
 * request without `Accept` (a browser asking for HTML still gets the HTML page), a 4xx's message as
 * its `detail`, logged by `logLevels`; `mapPayload`
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
    .addSubscriber(
      new ErrorListener({
        debug,
        defaultFormat: 'problem+json',
        logLevels: options.logLevels ?? API_LOG_LEVELS,
        ...(logger ? { logger } : {}),
      }),
    )
    .addSubscriber(payload)
    .addSubscriber(new CacheAttributeListener());
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
