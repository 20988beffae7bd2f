import { nullLogger, type Logger, type Request } from '@switchboard/http-kernel';
import { markReported } from './reported-requests.js';
import { UnexpectedSessionUsageError } from './unexpected-session-usage-error.js';

export interface SessionGuardOptions {
  debug: boolean;
  logger?: Logger;
}

/**
 * The one door to session state. Switchboard creates no session; anything that would (a session
 * library, a cookie helper) calls `reportUsage` first. On a stateless request chain that is an
 * error in debug mode, thrown at the point of use so the stack shows the culprit; otherwise the
 * usage is recorded and the StatelessCheckListener logs a warning once the response is ready.
 */
export class SessionGuard {
  readonly #debug: boolean;
  readonly #logger: Logger;

  constructor(options: SessionGuardOptions) {
    this.#debug = options.debug;
    this.#logger = (options.logger ?? nullLogger).child({ channel: 'security' });
  }

  reportUsage(request: Request, source: string): void {
    const main = request.requestStack?.getMainRequest() ?? request;
    const usages = main.attributes.get('_session_usages') ?? [];
    usages.push(source);
    main.attributes.set('_session_usages', usages);
    if (!isStateless(request) && !isStateless(main)) return;
    if (this.#debug) {
      markReported(main);
      throw new UnexpectedSessionUsageError([source]);
    }
    this.#logger.debug({ source }, 'Session used on a stateless request.');
  }
}

export function isStateless(request: Request): boolean {
  return request.attributes.get('_stateless') === true;
}
