import type { Route } from '@switchboard/router';
import { errorComponents } from '../responses/error-responses.js';
import type { JsonSchemaConverter } from '../schema/json-schema-of.js';
import { SchemaComponents } from '../schema/schema-components.js';
import { BEARER_SCHEME, type OpenApiSecurityOptions } from '../security/route-security.js';
import type { HttpMethod, OpenApiDocument, OpenApiInfo, OpenApiServer, PathItem, SecurityScheme } from './openapi-types.js';
import { routeOperations } from './route-operations.js';
import { byCodePoint, sortedRecord } from './stable-order.js';

/** Routes as the router holds them: a `RouteCollection`, a `Router`, or any list of routes. */
export type RouteSource = { all(): readonly Route[] } | Iterable<Route>;

export interface OpenApiOptions {
  info: OpenApiInfo;
  /** Where the API is served (`[{ url: 'https://api.example.com' }]`); routes with a host pattern get their own. */
  servers?: OpenApiServer[];
  /** The firewalls that guard the routes; without it no operation is marked as secured. */
  security?: OpenApiSecurityOptions;
  /**
   * Converters for schema libraries without Standard JSON Schema (`~standard.jsonSchema`), tried in
   * order; zod 4.2+ and ArkType need none.
   */
  converters?: readonly JsonSchemaConverter[];
  /** Which routes are documented. Default: every route whose name does not start with `_` (the profiler's, the error controller's). */
  include?: (route: Route) => boolean;
  /** Methods documented for a route that accepts every method. Default: `['get']`. */
  anyMethod?: readonly HttpMethod[];
}

/** The order OpenAPI lists a path item's operations in. */
const METHOD_ORDER: readonly HttpMethod[] = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * The OpenAPI 3.1 document of an app, from what its routes already declare: paths, methods,
 * requirements and hosts; payload schemas (`mapPayload`) as parameters and request bodies; the
 * firewalls and `_is_granted` as security; `_responses` as responses, and the errors each route
 * can answer. The same routes and options always give the same document, key for key, so it can
 * be committed and diffed.
 */
export function createOpenApiDocument(routes: RouteSource, options: OpenApiOptions): OpenApiDocument {
  const list = 'all' in routes && typeof routes.all === 'function' ? routes.all() : [...(routes as Iterable<Route>)];
  const include = options.include ?? ((route: Route) => !route.name.startsWith('_'));
  const components = new SchemaComponents();
  const errors = errorComponents();
  for (const [name, schema] of Object.entries(errors.schemas)) components.named(name, schema);
  const context = { components, converters: options.converters ?? [], security: options.security, anyMethod: options.anyMethod ?? ['get'] };

  const paths: Record<string, PathItem> = {};
  for (const route of list) {
    if (!include(route)) continue;
    for (const { path, method, operation } of routeOperations(route, context)) {
      const item = (paths[path] ??= {});
      // The router takes the first route that matches: a later one for the same path and method is never reached.
      if (item[method] === undefined) item[method] = operation;
    }
  }

  const securitySchemes: Record<string, SecurityScheme> = {};
  if (options.security !== undefined) {
    const scheme = options.security.scheme ?? BEARER_SCHEME;
    securitySchemes[scheme.name] = { ...scheme.definition };
    for (const alternative of options.security.alternativeSchemes ?? []) securitySchemes[alternative.name] = { ...alternative.definition };
  }
  const document: OpenApiDocument = {
    openapi: '3.1.0',
    info: orderedInfo(options.info),
    ...(options.servers === undefined ? {} : { servers: options.servers.map((server) => ({ ...server })) }),
    paths: Object.fromEntries(
      Object.keys(paths)
        .sort(byCodePoint)
        .map((path) => [path, orderedMethods(paths[path]!)]),
    ),
    components: {
      schemas: components.toRecord(),
      responses: sortedRecord(errors.responses),
      headers: sortedRecord(errors.headers),
      securitySchemes,
    },
  };
  return document;
}

function orderedMethods(item: PathItem): PathItem {
  const ordered: PathItem = {};
  for (const method of METHOD_ORDER) if (item[method] !== undefined) ordered[method] = item[method];
  return ordered;
}

/** The info object's members in the order OpenAPI lists them, however the options were written. */
function orderedInfo(info: OpenApiInfo): OpenApiInfo {
  const { title, summary, description, version } = info;
  return {
    title,
    ...(summary === undefined ? {} : { summary }),
    ...(description === undefined ? {} : { description }),
    version,
  };
}
