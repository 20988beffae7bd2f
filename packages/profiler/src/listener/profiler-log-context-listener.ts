import type { EventSubscriber, KernelEventMap, RequestEvent, SubscribedEvents } from '@switchboard/http-kernel';
import type { ProfilerRecorder } from '../recording/profiler-recorder.js';

/**
 * Marks the start of a main request for the `ProfilingLogger`: log calls made from here on, in
 * this request's async context, are filed under it (or under the sub-request being handled).
 */
export class ProfilerLogContextListener implements EventSubscriber<KernelEventMap> {
  /** First of all, so the logs of every other kernel.request listener are attributed. */
  static readonly REQUEST_PRIORITY = 2048;

  constructor(private readonly recorder: ProfilerRecorder) {}

  getSubscribedEvents(): SubscribedEvents<KernelEventMap> {
    return {
      'kernel.request': [this.onKernelRequest, ProfilerLogContextListener.REQUEST_PRIORITY],
    };
  }

  onKernelRequest(event: RequestEvent): void {
    if (event.isMainRequest()) this.recorder.enterLogContext(event.request);
  }
}
