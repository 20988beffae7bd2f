/**
 * @switchboard/openapi — the OpenAPI 3.1 document of an app, from what it already declares (routes,
 * requirements, hosts, payload schemas, firewalls, `_is_granted`, `_cache`, `_responses`); the
 * response-schema listener (`kernel.response` 16) that keeps JSON answers to their declared
 * schema; a route that serves the document and the `switchboard-openapi` command that writes it.
 * @module
 */
export { createOpenApiDocument, type OpenApiOptions, type RouteSource } from './document/create-openapi-document.js';
export type {
  HttpMethod,
  JsonSchema,
  MediaTypeObject,
  OpenApiComponents,
  OpenApiDocument,
  OpenApiInfo,
  OpenApiServer,
  Operation,
  Parameter,
  PathItem,
  Reference,
  RequestBody,
  ResponseHeader,
  ResponseObject,
  SecurityScheme,
} from './document/openapi-types.js';
export {
  jsonSchemaOf,
  SchemaConversionError,
  type JsonSchemaConverter,
  type SchemaDirection,
  type SchemaSite,
} from './schema/json-schema-of.js';
export { BEARER_SCHEME, type DocumentedFirewall, type DocumentedScheme, type OpenApiSecurityOptions } from './security/route-security.js';
export {
  defineResponses,
  RESPONSES_DEFAULT,
  type DeclaredHeader,
  type ResponseDeclaration,
  type ResponseSchemas,
} from './responses/declare-responses.js';
export {
  ResponseSchemaListener,
  type ResponseSchemaListenerOptions,
  type ResponseSchemaMismatch,
} from './listener/response-schema-listener.js';
export { projectOntoSchema, type Projection } from './listener/project-onto-schema.js';
export { openApiRoute, type OpenApiRouteOptions } from './route/openapi-route.js';
export { formatOpenApiDocument, loadOpenApiDocument, type OpenApiExport, type OpenApiSource } from './cli/load-document.js';
