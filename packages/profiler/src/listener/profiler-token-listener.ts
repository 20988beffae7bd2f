import type { EventSubscriber, FinishRequestEvent, KernelEventMap, ResponseEvent, SubscribedEvents } from '@switchboard/http-kernel';
import type { Profiler } from '../profiler.js';

export const DEBUG_TOKEN_HEADER = 'x-debug-token';
export const PREVIOUS_DEBUG_TOKEN_HEADER = 'x-previous-debug-token';

/**
 * Gives every profiled request (main and sub) a profile token and sets the debug token headers.
 *
 * Direction (the reverse of Symfony): `x-debug-token` names the profile of the
 * request that produced the response. When the response already carries a token of this request
 * chain, a sub-request produced it (the error page): that token stays, and this request's token
 * goes to `x-previous-debug-token`. A token from elsewhere (a proxied response) moves to
 * `x-previous-debug-token` and this request's token takes its place.
 */
export class ProfilerTokenListener implements EventSubscriber<KernelEventMap> {
  /**
   * After the listeners that shape the response (`CorsListener.RESPONSE_PRIORITY`,
   * `CacheAttributeListener.RESPONSE_PRIORITY`), before `DebugTokenLinkListener.RESPONSE_PRIORITY`.
   */
  static readonly RESPONSE_PRIORITY = -100;
  /** Last: the snapshot of status and headers then holds what every response listener set. */
  static readonly FINISH_REQUEST_PRIORITY = -1024;

  constructor(private readonly profiler: Profiler) {}

  getSubscribedEvents(): SubscribedEvents<KernelEventMap> {
    return {
      'kernel.response': [this.onKernelResponse, ProfilerTokenListener.RESPONSE_PRIORITY],
      'kernel.finish_request': [this.onKernelFinishRequest, ProfilerTokenListener.FINISH_REQUEST_PRIORITY],
    };
  }

  onKernelResponse(event: ResponseEvent): void {
    const recorder = this.profiler.recorder;
    const recording = recorder.recordingOf(event.request, true);
    const chain = recorder.chainOf(event.request);
    if (recording === null || chain === null) return;

    const token = this.profiler.newToken();
    const headers = event.response.headers;
    const existing = headers.get(DEBUG_TOKEN_HEADER);
    if (existing !== undefined && chain.hasToken(existing)) {
      headers.set(PREVIOUS_DEBUG_TOKEN_HEADER, token);
    } else {
      if (existing !== undefined) headers.set(PREVIOUS_DEBUG_TOKEN_HEADER, existing);
      headers.set(DEBUG_TOKEN_HEADER, token);
    }
    recording.token = token;
    recording.time = Date.now();
    recording.respondedAt = performance.now();
    recording.responseEvent = event;
  }

  onKernelFinishRequest(event: FinishRequestEvent): void {
    this.profiler.recorder.recordingOf(event.request)?.takeSnapshot();
  }
}
