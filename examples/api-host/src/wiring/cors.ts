import { compileOriginRules, CorsListener, LOOPBACK_ORIGIN } from '@switchboard/cors';
import type { Wiring } from './wiring.js';

/** The origins the CORS step lets in (its default); the login's same-origin check trusts them too. */
const CORS_ORIGINS = [LOOPBACK_ORIGIN];
export const isCorsOrigin = compileOriginRules(CORS_ORIGINS);

/**
 * The cross-origin step: origins `http(s)://localhost` or `http(s)://127.0.0.1`
 * with an optional port, anchored, and the usual methods (both package defaults); browsers may send
 * JSON with a bearer token and read the Location of a created item and the profiler headers.
 */
export function wireCors(): Wiring {
  return {
    subscribers: [
      new CorsListener({
        allowOrigins: CORS_ORIGINS,
        allowHeaders: ['content-type', 'authorization', 'x-requested-with'],
        exposeHeaders: ['location', 'x-debug-token', 'x-debug-token-link'],
        maxAgeSeconds: 3600,
      }),
    ],
  };
}
