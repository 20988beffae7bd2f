import { CacheAttributeListener } from '@switchboard/http-cache';
import type { Wiring } from './wiring.js';

/**
 * The cache attribute (kernel.controller_arguments 10, kernel.response −10): routes
 * declaring `_cache` get their Cache-Control, Vary and validators, and 304 answers to conditional
 * GETs; error responses keep `no-cache, private`.
 */
export function wireHttpCache(): Wiring {
  return { subscribers: [new CacheAttributeListener()] };
}
