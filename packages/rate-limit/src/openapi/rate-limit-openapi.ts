import type { OpenApiContributor } from '@switchboard/openapi';

/** What a route's `_rate_limit` means in the OpenAPI document: it may answer 429 (with `Retry-After`). */
export function rateLimitOpenApi(): OpenApiContributor {
  return {
    describeOperation({ route }) {
      const declared = route.defaults['_rate_limit'];
      // Set and not `false` or `null`: the route is limited.
      return declared === undefined || declared === null || declared === false ? undefined : { responses: ['TooManyRequests'] };
    },
  };
}
