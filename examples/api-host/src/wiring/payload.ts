import type { Logger } from '@switchboard/http-kernel';
import { removeAbandonedUploads, RequestPayloadValueResolver } from '@switchboard/payload';
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

/**
 * Run at start: deletes the upload folders that processes which no longer run left in the
 * temporary directory (a process killed mid-upload never removes its own).
 */
export async function removeLeftoverUploads(logger: Logger): Promise<void> {
  const removed = await removeAbandonedUploads();
  if (removed > 0) logger.info({ removed }, `Uploads: removed ${removed} temporary folder(s) left by processes that no longer run.`);
}
