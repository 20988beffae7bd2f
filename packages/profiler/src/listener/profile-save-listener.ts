import type {
  EventSubscriber,
  KernelEventMap,
  MaybePromise,
  OwnedDeclarations,
  SubscribedEvents,
  TerminateEvent,
} from '@switchboard/http-kernel';
import { PROFILE_ATTRIBUTE } from '../recording/profiler-recorder.js';
import type { Profiler } from '../profiler.js';

/**
 * Once the response was sent, closes the request chain's recording and saves its profiles
 * (sub-requests first, main request last); their data is built when read. A failure here is
 * logged by the kernel; the client already has its response.
 */
export class ProfileSaveListener implements EventSubscriber<KernelEventMap> {
  /** Last of all kernel.terminate work, so the profile sees everything else that ran. */
  static readonly TERMINATE_PRIORITY = -1024;

  constructor(private readonly profiler: Profiler) {}

  /** `_profile: false` on a route (the profiler's own pages) keeps its requests out of the profiles. */
  getOwnedDeclarations(): OwnedDeclarations {
    return { routeDefaults: [PROFILE_ATTRIBUTE] };
  }

  getSubscribedEvents(): SubscribedEvents<KernelEventMap> {
    return {
      'kernel.terminate': [this.onKernelTerminate, ProfileSaveListener.TERMINATE_PRIORITY],
    };
  }

  onKernelTerminate(event: TerminateEvent): MaybePromise<void> {
    const chain = this.profiler.recorder.chainOf(event.request);
    if (chain === null || chain.closed) return;
    // Closes the chain before anything is written, so a second terminate of the same chain finds it closed.
    return this.profiler.save(this.profiler.record(chain));
  }
}
