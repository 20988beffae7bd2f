import type { Encoder } from '@switchboard/http-kernel/view';
import type { Route } from '@switchboard/router';
import type { OpenApiContributor } from '../contributor/openapi-contributor.js';
import { errorComponents } from '../responses/error-responses.js';
import type { JsonSchemaConverter } from '../schema/json-schema-of.js';
import { SchemaComponents } from '../schema/schema-components.js';
import type { HttpMethod, OpenApiDocument, OpenApiInfo, OpenApiServer, PathItem, SecurityScheme } from '../spec/openapi-types.js';
import { routeOperations } from './route-operations.js';
import { byCodePoint, sortedRecord } from '../spec/stable-order.js';

/** Routes as the router holds them: a `RouteCollection`, a `Router`, or any list of routes. */
export type RouteSource = { all(): readonly Route[] } | Iterable<Route>;

export interface OpenApiOptions {
  info: OpenApiInfo;
  /** Where the API is served (`[{ url: 'https://api.example.com' }]`); routes with a host pattern get their own. */
  servers?: OpenApiServer[];
  /**
   * What the packages acting on route defaults say of each route, for the listeners the app
   * registers: `httpCacheOpenApi` (`_cache`: 304 and caching headers), `rateLimitOpenApi`
   * (`_rate_limit`: 429), `securityOpenApi(firewalls)` (the firewalls, `_is_granted` and
   * `_same_origin`: `security`, 401 and 403), from each package's `./openapi` entry.
   */
  contributors?: readonly OpenApiContributor[];
  /**
   * Converters for schema libraries without Standard JSON Schema (`~standard.jsonSchema`), tried in
   * order; zod 4.2+ and ArkType need none.
   */
  converters?: readonly JsonSchemaConverter[];
  /** Which routes are documented. Default: every route whose name does not start with `_` (the profiler's, the error controller's). */
  include?: (route: Route) => boolean;
  /** Methods documented for a route that accepts every method. Default: `['get']`. */
  anyMethod?: readonly HttpMethod[];
  /**
   * The encoders given to the `ViewListener`, when some are your own: a route's `_formats` are
   * documented as the media types of its answers. Default: the built-in ones (JSON, NDJSON, event streams).
   */
  encoders?: readonly Encoder[];
}

/** The order OpenAPI lists a path item's operations in. */
const METHOD_ORDER: readonly HttpMethod[] = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * The OpenAPI 3.1 document of an app, from what its routes already declare: paths, methods,
 * requirements and hosts; payload schemas (`mapPayload`) as parameters and request bodies;
 * `_responses` as responses, and the errors each route can answer; what the contributors add
 * (security, rate limits, caching). The same routes and options always give the same document, key for key, so it can
 * be committed and diffed.
 */
export function createOpenApiDocument(routes: RouteSource, options: OpenApiOptions): OpenApiDocument {
  const list = 'all' in routes && typeof routes.all === 'function' ? routes.all() : [...(routes as Iterable<Route>)];
  const include = options.include ?? ((route: Route) => !route.name.startsWith('_'));
  const components = new SchemaComponents();
  const errors = errorComponents();
  for (const [name, schema] of Object.entries(errors.schemas)) components.named(name, schema);
  const contributors = options.contributors ?? [];
  const context = {
    components,
    converters: options.converters ?? [],
    contributors,
    anyMethod: options.anyMethod ?? ['get'],
    encoders: options.encoders,
  };

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
  for (const contributor of contributors) {
    for (const [name, scheme] of Object.entries(contributor.securitySchemes ?? {})) securitySchemes[name] = { ...scheme };
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
