import { CompressionListener } from '@switchboard/compression';
import type { Wiring } from './wiring.js';

/**
 * Compression of answers (br, zstd where Node has it, gzip, deflate) for clients that ask, from
 * 1 KiB up. Error answers are left as they are: their headers are fixed by the service's error
 * contract (`Vary: Accept` alone). The item event stream opts in on its route.
 */
export function wireCompression(): Wiring {
  return { subscribers: [new CompressionListener({ errors: false })] };
}
