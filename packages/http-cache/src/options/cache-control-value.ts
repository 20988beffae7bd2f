import type { CacheOptions } from './cache-options.js';

/**
 * The `Cache-Control` value a declaration gives, directives sorted by name as Symfony
 * stack writes them (`max-age=60, public, s-maxage=120`); `null` when it declares none.
 */
export function cacheControlValue(options: CacheOptions): string | null {
  const directives: string[] = [];
  if (options.maxAgeSeconds !== undefined) directives.push(`max-age=${options.maxAgeSeconds}`);
  if (options.mustRevalidate === true) directives.push('must-revalidate');
  if (options.public === true) directives.push('public');
  if (options.public === false) directives.push('private');
  if (options.sMaxAgeSeconds !== undefined) directives.push(`s-maxage=${options.sMaxAgeSeconds}`);
  if (options.staleIfErrorSeconds !== undefined) directives.push(`stale-if-error=${options.staleIfErrorSeconds}`);
  if (options.staleWhileRevalidateSeconds !== undefined) directives.push(`stale-while-revalidate=${options.staleWhileRevalidateSeconds}`);
  return directives.length === 0 ? null : directives.join(', ');
}
