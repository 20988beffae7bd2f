/**
 * `@switchboard/rate-limit/openapi` — what `_rate_limit` says in the OpenAPI document:
 * `createOpenApiDocument(routes, { contributors: [rateLimitOpenApi()] })`. Needs
 * `@switchboard/openapi` (an optional peer).
 * @module
 */
export { rateLimitOpenApi } from './rate-limit-openapi.js';
