import { RangeListener } from '@switchboard/files';
import type { Wiring } from './wiring.js';

/**
 * The Range listener (kernel.response −24): any main GET/HEAD 200 of known length (a text or bytes
 * body, a file) gets `Accept-Ranges: bytes`, its preconditions checked against its own ETag and
 * Last-Modified (304, 412), and `Range` / `If-Range` answered (206, 416).
 */
export function wireRange(): Wiring {
  return { subscribers: [new RangeListener()] };
}
