import {
  createOpenApiDocument,
  openApiRoute,
  ResponseSchemaListener,
  type OpenApiDocument,
  type OpenApiOptions,
} from '@switchboard/openapi';
import { httpCacheOpenApi } from '@switchboard/http-cache/openapi';
import { rateLimitOpenApi } from '@switchboard/rate-limit/openapi';
import type { FirewallMap } from '@switchboard/security';
import { securityOpenApi } from '@switchboard/security/openapi';
import { oidcConfigFromEnv } from '../security/oidc-config.js';
import type { HostContext, Wiring } from './wiring.js';

/** Where the document is served. */
export const OPENAPI_PATH = '/api/openapi.json';

/**
 * The document's options: what the routes cannot say about the API. With `OIDC_ISSUER`, each
 * issuer is an `openIdConnect` scheme (`oidc`, or `oidc1`, `oidc2`… for several) that operations
 * accept beside the bearer JWT, with the scopes their `_is_granted` names.
 */
export function openApiOptions(firewalls: FirewallMap, env: NodeJS.ProcessEnv = {}): OpenApiOptions {
  const issuers = oidcConfigFromEnv(env)?.issuers ?? [];
  const alternativeSchemes = issuers.map((issuer, index) => ({
    name: issuers.length === 1 ? 'oidc' : `oidc${index + 1}`,
    definition: { type: 'openIdConnect' as const, openIdConnectUrl: `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration` },
  }));
  return {
    info: {
      title: 'Switchboard example API',
      version: '1.0.0',
      description: 'Items, JWT logins and a health probe. Errors are problem+json documents (RFC 9457) for JSON clients.',
    },
    // What the host's listeners of `_is_granted`, `_same_origin`, `_cache` and `_rate_limit` answer.
    contributors: [
      securityOpenApi({ firewalls, ...(alternativeSchemes.length === 0 ? {} : { alternativeSchemes }) }),
      httpCacheOpenApi(),
      rateLimitOpenApi(),
    ],
  };
}

export interface WiredOpenApi extends Wiring {
  /** Builds the document from the app's routes, for the `openapi` command (`openapi-source.ts`). */
  document(): OpenApiDocument;
}

/**
 * The API's OpenAPI document, served at `GET /api/openapi.json` (public, cacheable, in both
 * modes) from every route of the app, and the response-schema listener (kernel.response 16):
 * JSON answers keep only what their route's `_responses` declares; in debug mode an answer that
 * does not match is logged at WARNING and recorded in its profile.
 */
export function wireOpenApi(host: HostContext, firewalls: FirewallMap): WiredOpenApi {
  const options = openApiOptions(firewalls, host.env);
  return {
    routes: [openApiRoute({ routes: host.routes, path: OPENAPI_PATH, name: 'api_openapi', ...options })],
    subscribers: [new ResponseSchemaListener({ debug: host.debug, logger: host.logger })],
    document: () => createOpenApiDocument(host.routes, options),
  };
}
