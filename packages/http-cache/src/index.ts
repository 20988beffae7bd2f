/**
 * @switchboard/http-cache — the route cache attribute: a route's `_cache` default becomes its
 * `Cache-Control`, `Vary`, `ETag` and `Last-Modified`, and a conditional GET whose copy is current
 * is answered 304 before the controller runs. Errors are never cached.
 * @module
 */
export { CacheAttributeListener } from './listener/cache-attribute-listener.js';
export { assertCacheOptions, defineCache, type CacheOptions, type ValidatorFunction } from './options/cache-options.js';
export { cacheControlValue } from './options/cache-control-value.js';
export { entityTag, ifMatchMatches, ifNoneMatchMatches, strongMatch } from './validators/entity-tag.js';
export { isNotModified, notModifiedResponse, type Validators } from './validators/not-modified.js';
export { evaluatePreconditions, type PreconditionOutcome } from './validators/preconditions.js';
