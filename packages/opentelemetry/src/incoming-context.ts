import type { Request } from '@switchboard/http-kernel';

/** Whose incoming trace context and baggage are continued; see `OpenTelemetryBridgeOptions.incomingContext`. */
export type IncomingContextOption = 'trusted-proxies' | 'all' | ((request: Request) => boolean);

/**
 * The option as a test of the request. By default only what a trusted proxy passes on is
 * believed: a client that talks to the server directly could otherwise pick the trace its
 * requests join (and force them sampled) and put any `baggage` in front of the code that reads
 * it or passes it to the services this one calls.
 */
export function incomingContextPolicy(option: IncomingContextOption = 'trusted-proxies'): (request: Request) => boolean {
  if (typeof option === 'function') return option;
  if (option === 'all') return () => true;
  if (option === 'trusted-proxies') return (request) => request.fromTrustedProxy;
  throw new TypeError(`incomingContext must be 'trusted-proxies', 'all' or a function, got ${JSON.stringify(option)}.`);
}
