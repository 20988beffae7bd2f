/**
 * @switchboard/json-api — a JSON API in one call: `createJsonApi` wires the router, problem+json
 * errors, payloads, cache headers and, when configured, security, CORS and route rate limits.
 * @module
 */
export { API_LOG_LEVELS, createJsonApi, type JsonApi, type JsonApiOptions } from './create-json-api.js';
