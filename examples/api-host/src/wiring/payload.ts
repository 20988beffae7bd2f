import { ArgumentResolver, type EventDispatcher, type KernelEventMap } from '@switchboard/http-kernel';
import { RequestPayloadValueResolver } from '@switchboard/payload';

/** What the payload wiring needs from the app. */
export interface PayloadHost {
  dispatcher: EventDispatcher<KernelEventMap>;
}

/** Largest JSON/form body a payload argument reads (the adapter's own limit stays in force too). */
const MAX_PAYLOAD_BYTES = 64 * 1024;

/**
 * Payload mapping (kernel.controller_arguments): registers the step at priority 0
 * (after authorization at 20 and the cache attribute at 10) and returns the argument resolver the
 * kernel must be built with, whose value resolver claims the `mapPayload` arguments.
 */
export function wirePayload(host: PayloadHost): ArgumentResolver {
  const payload = new RequestPayloadValueResolver({ maxBodyBytes: MAX_PAYLOAD_BYTES });
  host.dispatcher.addSubscriber(payload);
  return new ArgumentResolver([payload]);
}
