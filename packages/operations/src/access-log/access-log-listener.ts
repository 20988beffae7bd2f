import {
  isLogged,
  type EventSubscriber,
  type KernelEventMap,
  type Logger,
  type RequestEvent,
  type SubscribedEvents,
  type TerminateEvent,
} from '@switchboard/http-kernel';
import { knownBodyLength } from '@switchboard/http-kernel/internal';
import { redactSecrets } from '@switchboard/http-kernel/redaction';
import { millisecondsText } from './milliseconds-text.js';

declare module '@switchboard/http-kernel' {
  interface RequestAttributes {
    /** `performance.now()` when the first `kernel.request` listener ran (`AccessLogListener`). */
    _access_log_started?: number;
  }
}

export interface AccessLogListenerOptions {
  /** Where the lines go: its `access` channel, at INFO. */
  logger: Logger;
  /**
   * The share of 2xx answers that get a line, from 0 to 1. Default 1 (every one). Other statuses
   * are always logged: errors and redirects are the lines an operator looks for.
   */
  successSampleRate?: number;
  /** Draws the sampling number in [0, 1). Default `Math.random`; tests pass a fixed sequence. */
  random?: () => number;
}

/** The fields of one access line (the record's context). */
export type AccessLogContext = {
  method: string;
  /** The matched route's name; `null` when none matched (a 404, a request refused before routing). */
  route: string | null;
  /**
   * Path and query string as received, secrets replaced by `[redacted]` (`redactSecrets`): values
   * named like secrets (`password=`, `api_key=`, `access_token=`, `token=`, `code=`…), URL userinfo
   * and bearer-shaped credentials.
   */
  path: string;
  status: number;
  /**
   * From the first `kernel.request` listener to `kernel.terminate`, in ms. The node adapter runs
   * `kernel.terminate` on the loop turn after the answer was sent, so a busy turn adds its wait.
   */
  durationMs: number;
  /** Body bytes, `null` for a stream without a `Content-Length`. */
  bytes: number | null;
  clientIp: string;
  requestId: string | null;
};

/**
 * One line per main request, written at `kernel.terminate`, after the client got its answer:
 *
 * - `kernel.request` (`REQUEST_PRIORITY`, first): notes when the request started.
 * - `kernel.terminate` (`TERMINATE_PRIORITY`): writes `GET /items 200 1.2 ms 17 B 127.0.0.1 <id>`
 *   at INFO on the `access` channel, with the fields of `AccessLogContext` as its context.
 */
export class AccessLogListener implements EventSubscriber<KernelEventMap> {
  static readonly REQUEST_PRIORITY = 8192;
  static readonly TERMINATE_PRIORITY = 0;

  readonly #logger: Logger;
  readonly #logs: boolean;
  readonly #successSampleRate: number;
  readonly #random: () => number;

  constructor(options: AccessLogListenerOptions) {
    const rate = options.successSampleRate ?? 1;
    if (!(rate >= 0 && rate <= 1)) throw new RangeError(`successSampleRate must be between 0 and 1, got ${rate}.`);
    this.#logger = options.logger.child({ channel: 'access' });
    this.#logs = isLogged(this.#logger, 'INFO');
    this.#successSampleRate = rate;
    this.#random = options.random ?? Math.random;
  }

  getSubscribedEvents(): SubscribedEvents<KernelEventMap> {
    return {
      'kernel.request': [this.onKernelRequest, AccessLogListener.REQUEST_PRIORITY, { mainRequestOnly: true }],
      'kernel.terminate': [this.onKernelTerminate, AccessLogListener.TERMINATE_PRIORITY],
    };
  }

  onKernelRequest(event: RequestEvent): void {
    if (this.#logs) event.request.attributes.set('_access_log_started', performance.now());
  }

  onKernelTerminate(event: TerminateEvent): void {
    const { request, response } = event;
    const started = request.attributes.get('_access_log_started');
    if (started === undefined) return;
    if (response.isSuccessful && this.#successSampleRate < 1 && this.#random() >= this.#successSampleRate) return;
    const target = request.queryString === '' ? request.rawPath : `${request.rawPath}?${request.queryString}`;
    const path = redactSecrets(target);
    const micros = Math.round((performance.now() - started) * 1000);
    const context: AccessLogContext = {
      method: request.method,
      route: request.attributes.get('_route') ?? null,
      path,
      status: response.status,
      durationMs: micros / 1000,
      bytes: knownBodyLength(request, response),
      clientIp: request.clientIp,
      requestId: request.attributes.get('_request_id') ?? null,
    };
    // The fields again in the message, for formats that print only the message.
    this.#logger.info(
      context,
      `${context.method} ${path} ${context.status} ${millisecondsText(micros)} ms ${context.bytes ?? '-'} B ${context.clientIp} ${context.requestId ?? '-'}`,
    );
  }
}
