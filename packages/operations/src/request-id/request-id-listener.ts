import {
  nullLogger,
  RequestLogger,
  type EventSubscriber,
  type KernelEventMap,
  type Logger,
  type OwnedDeclarations,
  type Request,
  type RequestEvent,
  type ResponseEvent,
  type SubscribedEvents,
} from '@switchboard/http-kernel';

export interface RequestIdListenerOptions {
  /** The application's logger: `request.logger` is its child, bound to the request id and route. */
  logger?: Logger;
  /** The header read from trusted proxies and written on every response. Default `x-request-id`. */
  header?: string;
  /**
   * Whether an id sent by a trusted proxy (`request.fromTrustedProxy`) is kept. Default true; a
   * request straight from its client always gets a new id, so nobody outside can choose it.
   */
  trustProxyId?: boolean;
  /**
   * Makes a new id. Default: a random prefix chosen once per process, then a counter
   * (`generateRequestId`). What it returns must pass `isSafeRequestId`, or the request fails (500).
   */
  generate?: () => string;
}

/**
 * What an incoming id may look like: 1 to 200 of `A-Z a-z 0-9 . _ : -`. Enough for UUIDs,
 * W3C trace ids and the ids of common proxies and balancers (`Root=1-…` is refused for its `=`);
 * nothing that could break a header, a JSON string or a log line.
 */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,200}$/;

/** Whether `value` is an id this listener keeps from a trusted proxy. */
export function isSafeRequestId(value: string): boolean {
  return SAFE_REQUEST_ID.test(value);
}

/**
 * 12 hex digits (48 random bits) chosen once per process, then a counter in base 36, 8 digits wide
 * (ids keep one length, and sort in the order they were made, for 2.8 × 10¹² requests): unique within
 * the process, and across processes and restarts as long as their prefixes differ. No random
 * number per request: the bench measured `crypto.randomUUID()` at several times the cost (pass it
 * as `generate` when ids must not reveal how many requests came before).
 */
const PROCESS_PREFIX = globalThis.crypto.randomUUID().slice(0, 13).replace('-', '');
let requestCounter = 0;

export function generateRequestId(): string {
  requestCounter += 1;
  return `${PROCESS_PREFIX}-${requestCounter.toString(36).padStart(8, '0')}`;
}

/**
 * Gives every request an id (`_request_id`) and `request.logger`, and echoes the id in the response:
 *
 * - `kernel.request` (`REQUEST_PRIORITY`, before every other listener, so each one's records carry
 *   the id): keeps the id a trusted proxy sent when it is safe (`isSafeRequestId`), else makes one.
 *   A sub-request has its main request's id and logger.
 * - `kernel.response` (`RESPONSE_PRIORITY`, after the others): writes the id header on main
 *   responses, error pages included.
 */
export class RequestIdListener implements EventSubscriber<KernelEventMap> {
  static readonly REQUEST_PRIORITY = 8192;
  static readonly RESPONSE_PRIORITY = -2048;

  readonly #logger: Logger;
  readonly #header: string;
  readonly #trustProxyId: boolean;
  readonly #generate: () => string;

  constructor(options: RequestIdListenerOptions = {}) {
    this.#logger = options.logger ?? nullLogger;
    this.#header = (options.header ?? 'x-request-id').toLowerCase();
    this.#trustProxyId = options.trustProxyId ?? true;
    this.#generate = options.generate === undefined ? generateRequestId : checkedGenerator(options.generate);
  }

  /** The attribute it sets on every request, which a controller may take as an argument. */
  getOwnedDeclarations(): OwnedDeclarations {
    return { requestAttributes: ['_request_id'] };
  }

  getSubscribedEvents(): SubscribedEvents<KernelEventMap> {
    return {
      'kernel.request': [this.onKernelRequest, RequestIdListener.REQUEST_PRIORITY],
      'kernel.response': [this.onKernelResponse, RequestIdListener.RESPONSE_PRIORITY, { mainRequestOnly: true }],
    };
  }

  onKernelRequest(event: RequestEvent): void {
    const request = event.request;
    if (!event.isMainRequest()) {
      const main = request.originalRequest;
      const mainId = main.attributes.get('_request_id');
      if (mainId !== undefined) {
        request.attributes.set('_request_id', mainId);
        request.logger = main.logger;
        return;
      }
    }
    request.attributes.set('_request_id', this.#incomingId(request) ?? this.#generate());
    request.logger = new RequestLogger(this.#logger, request);
  }

  onKernelResponse(event: ResponseEvent): void {
    const id = event.request.attributes.get('_request_id');
    if (id !== undefined) event.response.headers.set(this.#header, id);
  }

  #incomingId(request: Request): string | undefined {
    if (!this.#trustProxyId || !request.fromTrustedProxy) return undefined;
    const sent = request.headers.get(this.#header);
    return sent !== undefined && isSafeRequestId(sent) ? sent : undefined;
  }
}

/** Problem documents and headers write the id as it is: a generator must keep to the safe format. */
function checkedGenerator(generate: () => string): () => string {
  return () => {
    const id = generate();
    if (!isSafeRequestId(id)) throw new TypeError(`RequestIdListener: the generated id ${JSON.stringify(id)} is not in the safe format.`);
    return id;
  };
}
