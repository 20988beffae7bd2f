import { createHash } from 'node:crypto';
import { defineController, Response } from '@switchboard/http-kernel';
import { Route } from '@switchboard/router';
import { createOpenApiDocument, type OpenApiOptions, type RouteSource } from '../document/create-openapi-document.js';

export interface OpenApiRouteOptions extends OpenApiOptions {
  /** The routes to document; read at the first request, when every route has been added. */
  routes: RouteSource;
  /** Default `/openapi.json`. */
  path?: string;
  /** Default `openapi`. */
  name?: string;
  /** How long clients and shared caches may keep the document, in seconds. Default 300. */
  maxAgeSeconds?: number;
}

/**
 * A public `GET` route that serves the app's OpenAPI document as JSON. The document is built at the
 * first request (so routes added after this one are in it) and kept. It is cacheable: the answer
 * carries `Cache-Control: public` and an `ETag`, and the route's `_cache` default lets the
 * http-cache listener answer `If-None-Match` with 304.
 *
 * @example routes.add(openApiRoute({ routes, path: '/api/openapi.json', info: { title: 'Items', version: '1.0.0' } }))
 */
export function openApiRoute(options: OpenApiRouteOptions): Route {
  const { routes, path = '/openapi.json', name = 'openapi', maxAgeSeconds = 300, ...documentOptions } = options;
  let served: { text: string; etag: string } | undefined;
  const current = (): { text: string; etag: string } => {
    if (served !== undefined) return served;
    const text = JSON.stringify(createOpenApiDocument(routes, documentOptions));
    served = { text, etag: `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"` };
    return served;
  };
  const controller = defineController(
    [],
    () => {
      const { text, etag } = current();
      return new Response(text, 200, { 'content-type': 'application/json', 'cache-control': `public, max-age=${maxAgeSeconds}`, etag });
    },
    'openapi.document',
  );
  return new Route(name, path, {
    methods: 'GET',
    controller,
    defaults: {
      _is_granted: 'PUBLIC_ACCESS',
      _cache: { public: true, maxAgeSeconds, etag: () => current().etag },
      _responses: { 200: { description: 'This OpenAPI 3.1 document.' } },
    },
    // Public, cacheable and documented wherever those listeners are registered; served without them too.
    optionalDefaults: ['_is_granted', '_cache', '_responses'],
  });
}
