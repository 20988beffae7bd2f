import type { EventDispatcher, KernelEventMap, Logger } from '@switchboard/http-kernel';
import {
  createOpenApiDocument,
  openApiRoute,
  ResponseSchemaListener,
  type OpenApiDocument,
  type OpenApiOptions,
} from '@switchboard/openapi';
import type { RouteCollection } from '@switchboard/router';
import type { FirewallMap } from '@switchboard/security';

/** What the OpenAPI wiring needs from the app. */
export interface OpenApiHost {
  dispatcher: EventDispatcher<KernelEventMap>;
  routes: RouteCollection;
  debug: boolean;
  logger?: Logger;
}

/** Where the document is served. */
export const OPENAPI_PATH = '/api/openapi.json';

/** The document's options: what the routes cannot say about the API. */
export function openApiOptions(firewalls: FirewallMap): OpenApiOptions {
  return {
    info: {
      title: 'Switchboard example API',
      version: '1.0.0',
      description: 'Items, JWT logins and a health probe. Errors are problem+json documents (RFC 9457) for JSON clients.',
    },
    security: { firewalls },
  };
}

/**
 * The API's OpenAPI document, served at `GET /api/openapi.json` (public, cacheable, in both
 * modes) from the routes every wiring added, and the response-schema listener (kernel.response
 * 16): JSON answers keep only what their route's `_responses` declares; in debug mode an answer
 * that does not match is logged at WARNING and recorded in its profile. Returns a function that
 * builds the document, for the `openapi` command (`openapi-source.ts`).
 */
export function wireOpenApi(host: OpenApiHost, firewalls: FirewallMap): () => OpenApiDocument {
  const options = openApiOptions(firewalls);
  host.routes.add(openApiRoute({ routes: host.routes, path: OPENAPI_PATH, name: 'api_openapi', ...options }));
  host.dispatcher.addSubscriber(
    new ResponseSchemaListener({ debug: host.debug, ...(host.logger === undefined ? {} : { logger: host.logger }) }),
  );
  return () => createOpenApiDocument(host.routes, options);
}
