import {
  AccessDeniedHttpError,
  type ControllerArgumentsEvent,
  type EventSubscriber,
  type KernelEventMap,
  type SubscribedEvents,
  type OwnedDeclarations,
} from '@switchboard/http-kernel';
import { sameOriginRefusal, type SameOriginOptions } from './same-origin-check.js';

/**
 * For routes whose `_same_origin` default is `true` or options: refuses unsafe cross-site
 * requests with a 403 through the normal error flow. The stateless stand-in for Symfony's
 * CSRF-token check, which needs a session.
 */
export class SameOriginListener implements EventSubscriber<KernelEventMap> {
  /** Before `IsGrantedListener.CONTROLLER_ARGUMENTS_PRIORITY`, as Symfony's CSRF attribute listener. */
  static readonly CONTROLLER_ARGUMENTS_PRIORITY = 25;

  /** `defaults` apply to every opted-in route; a route's own options are merged over them. */
  constructor(private readonly defaults: SameOriginOptions = {}) {}

  /** The route declarations this listener acts on: a route with one needs it registered. */
  getOwnedDeclarations(): OwnedDeclarations {
    return { routeDefaults: ['_same_origin'] };
  }

  getSubscribedEvents(): SubscribedEvents<KernelEventMap> {
    return {
      'kernel.controller_arguments': [this.onControllerArguments, SameOriginListener.CONTROLLER_ARGUMENTS_PRIORITY],
    };
  }

  onControllerArguments(event: ControllerArgumentsEvent): void {
    const option = event.request.attributes.get('_same_origin');
    if (option === undefined || option === false) return;
    const refusal = sameOriginRefusal(event.request, option === true ? this.defaults : { ...this.defaults, ...option });
    if (refusal !== null) throw new AccessDeniedHttpError(refusal);
  }
}
