/**
 * `@switchboard/security/openapi` — what the firewalls, `_is_granted` and `_same_origin` say in the
 * OpenAPI document: `createOpenApiDocument(routes, { contributors: [securityOpenApi({ firewalls })] })`.
 * Needs `@switchboard/openapi` (an optional peer).
 * @module
 */
export {
  BEARER_SCHEME,
  securityOpenApi,
  type DocumentedFirewall,
  type DocumentedScheme,
  type SecurityOpenApiOptions,
} from './security-openapi.js';
