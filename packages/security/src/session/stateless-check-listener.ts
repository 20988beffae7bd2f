import {
  nullLogger,
  type EventSubscriber,
  type KernelEventMap,
  type Logger,
  type ResponseEvent,
  type SubscribedEvents,
  type OwnedDeclarations,
} from '@switchboard/http-kernel';
import { markReported, wasReported } from './reported-requests.js';
import { isStateless } from './session-guard.js';
import { UnexpectedSessionUsageError } from './unexpected-session-usage-error.js';

export interface StatelessCheckListenerOptions {
  debug: boolean;
  logger?: Logger;
}

/**
 * The last word on a main request declared stateless (`_stateless`): if session state was
 * reported (SessionGuard) or the response tries to set a cookie, debug mode fails the request
 * (500) and production logs a warning and removes the `Set-Cookie` headers. Requests not declared
 * stateless are left alone: their cookies are the app's business.
 */
export class StatelessCheckListener implements EventSubscriber<KernelEventMap> {
  /** Very last, as Symfony's session listener: every other listener has had its say on the response. */
  static readonly RESPONSE_PRIORITY = -1000;
  readonly #debug: boolean;
  readonly #logger: Logger;

  constructor(options: StatelessCheckListenerOptions) {
    this.#debug = options.debug;
    this.#logger = (options.logger ?? nullLogger).child({ channel: 'security' });
  }

  /** The route declarations this listener acts on: a route with one needs it registered. */
  getOwnedDeclarations(): OwnedDeclarations {
    return { routeDefaults: ['_stateless'] };
  }

  getSubscribedEvents(): SubscribedEvents<KernelEventMap> {
    return {
      'kernel.response': [this.onKernelResponse, StatelessCheckListener.RESPONSE_PRIORITY, { mainRequestOnly: true }],
    };
  }

  onKernelResponse(event: ResponseEvent): void {
    const request = event.request;
    // Runs on every main request: only a stateless one is looked at further.
    if (!isStateless(request)) return;
    const headers = event.response.headers;
    const setsCookie = headers.has('set-cookie');
    if (setsCookie) headers.delete('set-cookie');
    const usages = request.attributes.get('_session_usages');
    if ((usages === undefined && !setsCookie) || wasReported(request)) return;
    const sources = [...(usages ?? []), ...(setsCookie ? ['Set-Cookie response header (removed)'] : [])];
    markReported(request);
    if (this.#debug) throw new UnexpectedSessionUsageError(sources);
    const removed = setsCookie ? '; its Set-Cookie headers were removed' : '';
    this.#logger.warn({ sources, path: request.rawPath }, `Session was used while the request was declared stateless${removed}.`);
  }
}
