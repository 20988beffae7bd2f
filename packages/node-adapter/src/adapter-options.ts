import { stderrLogger, type Logger } from '@switchboard/http-kernel';
import type { RequestFactoryOptions } from './request/node-request-factory.js';
import { parsePublicOrigin } from './request/public-origin.js';
import { TrustedHosts } from './request/trusted-hosts.js';

/** How incoming requests are turned into kernel requests and responses are written back. */
export interface NodeAdapterOptions {
  /** Largest request body accepted, in bytes; past it the body read fails with 413. Default 1 MiB. */
  bodyLimit?: number;
  /** Time allowed to receive a whole request body once it is read, in ms; past it 408. Default 30 s. */
  bodyTimeout?: number;
  /**
   * The longest a response's written bytes may wait for the client to take any of them in, in ms;
   * past it the response is cut (HTTP/1: its connection closed; HTTP/2: its stream reset) and an
   * INFO line says so. Every byte the client takes in starts the wait again, so a slow reader is
   * never cut; one that stops reading no longer holds a socket, a file or an event stream open.
   * Default 30 s.
   */
  sendTimeout?: number;
  /**
   * Proxies whose `X-Forwarded-For/-Proto/-Host/-Port` are believed: addresses, CIDR ranges or
   * `'loopback'`. Default none: forwarded headers are ignored.
   */
  trustedProxies?: readonly string[];
  /**
   * The hosts this server answers for: names (`api.example.com`), `*.example.com` for any name
   * under one, IP addresses (`127.0.0.1`, `[::1]`), or RegExps matched against the whole host.
   * A request for any other host (its `Host`, `:authority` or trusted `X-Forwarded-Host`, port
   * aside) is refused with 400 before the kernel. Default (and an empty list): any host; set it
   * for any server a browser can reach, or a DNS name re-pointed to it can read its answers.
   */
  trustedHosts?: readonly (string | RegExp)[];
  /**
   * The public origin the service answers for (`https://v2.api.example.com`). When set, every
   * request's scheme, host and port come from it instead of the socket and `Host` header: for a
   * host behind a TLS-terminating proxy that does not send trusted forwarded headers.
   */
  baseUrl?: string;
  /**
   * Headers added to the answers the adapter writes itself, which no kernel listener sees: a
   * malformed request (400), a request line or headers too large or too slow (431, 408), a refused
   * Host or protocol (400, 505), a failure of the kernel (500), a shutdown (503). For security
   * headers (`SecurityHeadersListener.plainAnswerHeaders()` of `@switchboard/security-headers`).
   */
  answerHeaders?: Readonly<Record<string, string>>;
  /**
   * Receives what the adapter must report: requests refused before the kernel (INFO), a response
   * that could not be written (CRITICAL). Default `stderrLogger` (CRITICAL records on stderr);
   * `nullLogger` silences it.
   */
  logger?: Logger;
}

export interface ResolvedAdapterOptions extends RequestFactoryOptions {
  readonly sendTimeout: number;
  readonly logger: Logger;
  readonly answerHeaders: Readonly<Record<string, string>>;
}

export const DEFAULT_BODY_LIMIT = 1024 * 1024;
export const DEFAULT_BODY_TIMEOUT_MS = 30_000;
export const DEFAULT_SEND_TIMEOUT_MS = 30_000;

export function resolveAdapterOptions(options: NodeAdapterOptions = {}): ResolvedAdapterOptions {
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const bodyTimeout = options.bodyTimeout ?? DEFAULT_BODY_TIMEOUT_MS;
  const sendTimeout = options.sendTimeout ?? DEFAULT_SEND_TIMEOUT_MS;
  if (!Number.isInteger(bodyLimit) || bodyLimit < 0) throw new RangeError(`bodyLimit must be a whole number of bytes, got ${bodyLimit}.`);
  if (!(bodyTimeout > 0)) throw new RangeError(`bodyTimeout must be a positive number of ms, got ${bodyTimeout}.`);
  if (!(sendTimeout > 0) || !Number.isFinite(sendTimeout))
    throw new RangeError(`sendTimeout must be a positive number of ms, got ${sendTimeout}.`);
  return {
    bodyLimit,
    bodyTimeout,
    sendTimeout,
    trustedProxies: options.trustedProxies ?? [],
    trustedHosts: options.trustedHosts === undefined || options.trustedHosts.length === 0 ? null : new TrustedHosts(options.trustedHosts),
    origin: options.baseUrl === undefined ? null : parsePublicOrigin(options.baseUrl),
    logger: (options.logger ?? stderrLogger).child({ channel: 'http' }),
    answerHeaders: lowerCasedNames(options.answerHeaders ?? {}),
  };
}

function lowerCasedNames(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}
