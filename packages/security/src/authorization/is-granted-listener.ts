import {
  AccessDeniedHttpError,
  UnauthorizedHttpError,
  type ControllerArgumentsEvent,
  type EventSubscriber,
  type KernelEventMap,
  type SubscribedEvents,
  type OwnedDeclarations,
} from '@switchboard/http-kernel';
import { andThen } from '@switchboard/http-kernel/internal';
import { currentUser } from '../user/security-user.js';
import { describeRule, isGranted, type IsGrantedRule } from './is-granted-rule.js';

export interface IsGrantedListenerOptions {
  /** `WWW-Authenticate` challenge of the 401 sent when there is no user. Default `Bearer`. */
  challenge?: string;
}

/**
 * Checks the route's `_is_granted` rule once the controller and its arguments are known (a voter
 * may look at them). Denied with a user → 403; denied without one → 401. Both go through the
 * normal error flow (error page, logs, profile).
 */
export class IsGrantedListener implements EventSubscriber<KernelEventMap> {
  /**
   * After `SameOriginListener.CONTROLLER_ARGUMENTS_PRIORITY`, before `CacheAttributeListener` and
   * `RequestPayloadValueResolver` (their `CONTROLLER_ARGUMENTS_PRIORITY`).
   */
  static readonly CONTROLLER_ARGUMENTS_PRIORITY = 20;
  readonly #challenge: string;

  constructor(options: IsGrantedListenerOptions = {}) {
    this.#challenge = options.challenge ?? 'Bearer';
  }

  /** The route declarations this listener acts on: a route with one needs it registered. */
  getOwnedDeclarations(): OwnedDeclarations {
    return { routeDefaults: ['_is_granted'] };
  }

  getSubscribedEvents(): SubscribedEvents<KernelEventMap> {
    return {
      'kernel.controller_arguments': [this.onControllerArguments, IsGrantedListener.CONTROLLER_ARGUMENTS_PRIORITY],
    };
  }

  /** Synchronous (no promise, so the kernel stays synchronous too) unless a voter answers with one. */
  onControllerArguments(event: ControllerArgumentsEvent): void | Promise<void> {
    const request = event.request;
    const rule = request.attributes.get('_is_granted');
    if (rule === undefined) return;
    const user = currentUser(request);
    const granted = isGranted(rule, { user, request, arguments: event.arguments });
    return andThen(granted, (yes) => this.#decide(yes, event, rule, user === null));
  }

  #decide(granted: boolean, event: ControllerArgumentsEvent, rule: IsGrantedRule, anonymous: boolean): void {
    if (granted) return;
    const request = event.request;
    if (anonymous) {
      throw new UnauthorizedHttpError(this.#challenge, 'Full authentication is required to access this resource.');
    }
    const route = request.attributes.get('_route');
    // The message names roles and the route: for the log and debug pages, not for clients.
    throw new AccessDeniedHttpError(
      `Access Denied by _is_granted(${describeRule(rule)})${route === undefined ? '' : ` on route "${route}"`}.`,
      { exposeMessage: false },
    );
  }
}
