import { RequestPayloadValueResolver } from '@switchboard/payload';
import type { Wiring } from './wiring.js';

/** Largest JSON/form body a payload argument reads (the adapter's own limit stays in force too). */
const MAX_PAYLOAD_BYTES = 64 * 1024;

/**
 * Payload mapping (kernel.controller_arguments 0, after authorization at 20 and the cache
 * attribute at 10): one object is both the listener that maps the body and the value resolver
 * that hands the `mapPayload` arguments to controllers.
 */
export function wirePayload(): Wiring {
  const payload = new RequestPayloadValueResolver({ maxBodyBytes: MAX_PAYLOAD_BYTES });
  return { subscribers: [payload], valueResolvers: [payload] };
}
