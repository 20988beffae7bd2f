import { JsonResponse, defineController, type EventDispatcher, type KernelEventMap, type Logger } from '@switchboard/http-kernel';
import { defineResponses } from '@switchboard/openapi';
import { type RouteCollection, Router, RouterListener } from '@switchboard/router';
import { z } from 'zod';

/** What the routing wiring needs from the app. */
export interface RoutingHost {
  dispatcher: EventDispatcher<KernelEventMap>;
  routes: RouteCollection;
  logger?: Logger;
  /** Routing errors carry full stacks for the debug error page; otherwise only their throw site. */
  debug: boolean;
}

/** `GET /health`: the process is up and answers; no dependency is checked (a liveness probe). */
const healthController = defineController([], () => new JsonResponse({ status: 'ok' }, 200, { 'cache-control': 'no-store' }), 'health');

const HEALTH_RESPONSES = defineResponses({ 200: z.object({ status: z.literal('ok') }) });

/**
 * The routing step: adds the host's own demo route `GET /health`,
 * then compiles every route the wirings before it added and registers the router listener
 * (kernel.request 32): 404 for no route, 405 with `Allow`, 301 for a toggled trailing slash.
 * Call it after every wiring that adds routes; the router does not see routes added later.
 */
export function wireRouting(host: RoutingHost): Router {
  host.routes.add('health', '/health', {
    methods: ['GET'],
    controller: healthController,
    defaults: { _load_shedding: 'exempt', _responses: HEALTH_RESPONSES },
  });
  const router = new Router(host.routes);
  host.dispatcher.addSubscriber(
    new RouterListener(router, { debug: host.debug, ...(host.logger === undefined ? {} : { logger: host.logger }) }),
  );
  return router;
}
