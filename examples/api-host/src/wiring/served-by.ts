import cluster from 'node:cluster';
import type { EventSubscriber, KernelEventMap, ResponseEvent, SubscribedEvents } from '@switchboard/http-kernel';
import type { HostContext, Wiring } from './wiring.js';

export const SERVED_BY_HEADER = 'x-served-by';

/**
 * Names the process that answered, `x-served-by: worker 3 (pid 12345)`, so a developer sees which
 * worker of a cluster served a request; the profile's response headers keep it too.
 */
export class ServedByListener implements EventSubscriber<KernelEventMap> {
  /** Any response listener works (the profiler snapshots headers at finish_request): early, so the error pages carry it. */
  static readonly RESPONSE_PRIORITY = 0;

  constructor(readonly value: string) {}

  getSubscribedEvents(): SubscribedEvents<KernelEventMap> {
    return {
      'kernel.response': [this.onKernelResponse, ServedByListener.RESPONSE_PRIORITY],
    };
  }

  onKernelResponse(event: ResponseEvent): void {
    event.response.headers.set(SERVED_BY_HEADER, this.value);
  }
}

/** In debug mode, in a cluster worker only: production responses do not describe the deployment. */
export function wireServedBy(host: HostContext): Wiring {
  const worker = cluster.worker;
  if (!host.debug || worker === undefined) return {};
  return { subscribers: [new ServedByListener(`worker ${worker.id} (pid ${process.pid})`)] };
}
