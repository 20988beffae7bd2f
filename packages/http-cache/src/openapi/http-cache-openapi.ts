import type { OpenApiContributor, SharedHeaderName } from '@switchboard/openapi';
import type { CacheOptions } from '../options/cache-options.js';

/**
 * What a route's `_cache` means in the OpenAPI document: it may answer 304 (Not Modified), and its
 * successful answers carry `Cache-Control`, and `ETag` or `Last-Modified` when it computes them.
 */
export function httpCacheOpenApi(): OpenApiContributor {
  return {
    describeOperation({ route }) {
      const cache = route.defaults['_cache'];
      if (typeof cache !== 'object' || cache === null || Array.isArray(cache)) return undefined;
      const { etag, lastModified } = cache as CacheOptions;
      const successHeaders: SharedHeaderName[] = ['Cache-Control'];
      if (etag !== undefined) successHeaders.push('ETag');
      if (lastModified !== undefined) successHeaders.push('Last-Modified');
      return { responses: ['NotModified'], successHeaders };
    },
  };
}
