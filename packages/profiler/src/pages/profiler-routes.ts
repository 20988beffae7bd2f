import type { Request } from '@switchboard/http-kernel';
import { RouteCollection, type Router } from '@switchboard/router';
import type { ProfileLinkGenerator } from '../listener/debug-token-link-listener.js';
import type { ProfilerController } from './profiler-controller.js';
import type { RouteMatchExplainer } from './panels/route-match-explainer.js';

/** Route name of the profile page; `x-debug-token-link` is generated from it. */
export const PROFILER_ROUTE = '_profiler';
export const PROFILER_HOME_ROUTE = '_profiler_home';

/**
 * The profiler's routes, to mount under `/_profiler`: `_profiler_home` (`/`, the list and search)
 * and `_profiler` (`/:token`). Their `_profile: false` default keeps the pages out of the profiles.
 * Tokens are not constrained here: the controller refuses bad ones with an explanatory page.
 *
 * @example routes.mount('/_profiler', profilerRoutes(new ProfilerController(profiler)))
 */
export function profilerRoutes(controller: ProfilerController): RouteCollection {
  const defaults = { _profile: false };
  return new RouteCollection()
    .add(PROFILER_HOME_ROUTE, '/', { methods: 'GET', controller: controller.home, defaults })
    .add(PROFILER_ROUTE, '/:token', { methods: 'GET', controller: controller.panel, defaults });
}

/** `x-debug-token-link` from the router: the absolute URL of route `_profiler` in the request's scheme, host and port (and the router's base URL). */
export function routerProfileLink(router: Router): ProfileLinkGenerator {
  return (token: string, request: Request) => router.generate(PROFILER_ROUTE, { token }, { absolute: true, request });
}

/** The router panel's route-by-route log, replayed by the router when the panel is opened. */
export function routerMatchExplainer(router: Router): RouteMatchExplainer {
  return (input) => router.matchLog(input.path, { method: input.method, host: input.host, scheme: input.scheme });
}
