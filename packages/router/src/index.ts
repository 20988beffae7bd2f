/**
 * @switchboard/router — route definitions, the compiled matcher (reference-exact: declaration
 * order, HEAD as GET, 405 with the allowed methods, trailing-slash redirects), URL generation,
 * the route-matching log and the `kernel.request` router listener.
 * @module
 */
import './request-attributes.js';

export { Route, type CompiledRoute, type RouteOptions } from './route/route.js';
export { RouteCollection, type MountOptions, type TypedRouteOptions } from './route/route-collection.js';
export type {
  GenerateArguments,
  MountedRoutes,
  NoRoutes,
  ParameterSchemas,
  QueryParameters,
  RouteArgumentSources,
  RouteController,
  RouteName,
  RouteSignature,
  SignatureOf,
  UntypedRoutes,
} from './route/route-signature.js';
export type { PathParameterNames, PathParameters } from './route/path-parameters.js';
export type { CompiledPattern } from './route/compiled-pattern.js';

export { Router, type RouterGenerateOptions, type RouterOptions } from './router.js';
export { RequestContext, type RequestContextInit } from './context/request-context.js';
export { UrlMatcher, type UrlMatcherOptions } from './matcher/url-matcher.js';
export type {
  MatchContext,
  MatchResult,
  MethodNotAllowedMatch,
  NotFoundMatch,
  RedirectMatch,
  RouteMatch,
  TrailingSlashMode,
} from './matcher/match-result.js';
export { traceRoutes, type RouteTrace, type RouteTraceLevel } from './diagnostics/match-log.js';
export { UrlGenerator, type GenerateOptions } from './generator/url-generator.js';

export { RouterListener, type RouterListenerOptions } from './listener/router-listener.js';
export { redirectController } from './listener/redirect-controller.js';

export {
  InvalidParameterError,
  MalformedPathError,
  MethodNotAllowedError,
  MissingMandatoryParametersError,
  ResourceNotFoundError,
  RouteDefinitionError,
  RouteNotFoundError,
  RoutingError,
} from './error/routing-error.js';

export {
  DEBUG_ROUTER_USAGE,
  debugRouter,
  debugRouterCommand,
  DebugRouterUsageError,
  type DebugRouterOptions,
  type RoutesSource,
} from './cli/debug-router.js';
export { formatRouteTable, routeRows } from './cli/route-table.js';
