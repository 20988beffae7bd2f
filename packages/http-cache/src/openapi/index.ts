/**
 * `@switchboard/http-cache/openapi` — what `_cache` says in the OpenAPI document:
 * `createOpenApiDocument(routes, { contributors: [httpCacheOpenApi()] })`. Needs
 * `@switchboard/openapi` (an optional peer).
 * @module
 */
export { httpCacheOpenApi } from './http-cache-openapi.js';
