import {
  nullLogger,
  type EventSubscriber,
  type KernelEventMap,
  type Logger,
  type OwnedDeclarations,
  type RequestEvent,
  type Response,
  type SubscribedEvents,
} from '@switchboard/http-kernel';
import { PUBLIC_ACCESS } from '../authorization/is-granted-rule.js';
import type { Firewall, FirewallMap } from './firewall-map.js';

export interface FirewallListenerOptions {
  /** Receives one line per authentication (debug) and per refusal (info), on channel `security`. */
  logger?: Logger;
}

/**
 * Authenticates main requests with the firewall their path selects. Runs after routing, so an
 * unknown path is a 404 and never a 401, and error sub-requests are left alone. On a secured
 * firewall a request needs a user unless its route is `_is_granted: PUBLIC_ACCESS`; a bad token
 * is refused even there. A refusal sets the authenticator's response on the event, which skips
 * the controller and goes straight to kernel.response. A request the router sent to a redirect
 * (`_redirect_url`) is neither authenticated nor refused.
 */
export class FirewallListener implements EventSubscriber<KernelEventMap> {
  /** After `RouterListener.REQUEST_PRIORITY` and `LocaleListener.REQUEST_PRIORITY`, as Symfony's firewall. */
  static readonly REQUEST_PRIORITY = 8;
  readonly #logger: Logger;

  constructor(
    private readonly map: FirewallMap,
    options: FirewallListenerOptions = {},
  ) {
    this.#logger = (options.logger ?? nullLogger).child({ channel: 'security' });
  }

  /** The attributes it sets on an authenticated request, which a controller may take as arguments. */
  getOwnedDeclarations(): OwnedDeclarations {
    return { requestAttributes: ['_firewall', '_security_user'] };
  }

  getSubscribedEvents(): SubscribedEvents<KernelEventMap> {
    return {
      'kernel.request': [this.onKernelRequest, FirewallListener.REQUEST_PRIORITY, { mainRequestOnly: true }],
    };
  }

  /** Synchronous for requests no secured firewall handles, so they pay no promise. */
  onKernelRequest(event: RequestEvent): void | Promise<void> {
    const request = event.request;
    const firewall = this.map.match(request.path);
    if (firewall === null) return;
    request.attributes.set('_firewall', firewall.name);
    if (firewall.stateless && !request.attributes.has('_stateless')) request.attributes.set('_stateless', true);
    // A trailing-slash redirect serves nothing of the target: routing alone decides it, and the
    // firewall judges the target when the client follows the redirect.
    if (!firewall.security || request.attributes.has('_redirect_url')) return;
    return this.#authenticate(event, firewall);
  }

  async #authenticate(event: RequestEvent, firewall: Firewall): Promise<void> {
    const request = event.request;
    for (const authenticator of firewall.authenticators) {
      const outcome = await authenticator.authenticate(request);
      if (outcome.kind === 'authenticated') {
        request.attributes.set('_security_user', outcome.user);
        if (outcome.expiresAt !== undefined) request.attributes.set('_credentials_expire_at', outcome.expiresAt);
        this.#logger.debug({ firewall: firewall.name, authenticator: authenticator.name, user: outcome.user.identifier }, 'Authenticated.');
        return;
      }
      if (outcome.kind === 'failed') {
        this.#refuse(event, outcome.response, outcome.reason, firewall.name, authenticator.name);
        return;
      }
    }
    if (request.attributes.get('_is_granted') === PUBLIC_ACCESS) return;
    this.#refuse(event, firewall.authenticators[0]!.start(request), 'no credentials', firewall.name, 'entry point');
  }

  #refuse(event: RequestEvent, response: Response, reason: string, firewall: string, by: string): void {
    this.#logger.info(
      { firewall, authenticator: by, status: response.status, path: event.request.rawPath },
      `Authentication refused: ${reason}.`,
    );
    event.setResponse(response);
  }
}
