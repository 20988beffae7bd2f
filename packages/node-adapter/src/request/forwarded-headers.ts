import { isIP } from 'node:net';
import type { HeaderBag } from '@switchboard/http-kernel';
import { isPortNumber } from './host-header.js';
import { InvalidRequestError } from './invalid-request-error.js';
import { type TrustedProxies, unmapIpv4 } from './trusted-proxies.js';

/** What the trusted proxies in front of the server say about the request. */
export interface ForwardedRequest {
  readonly clientIp: string;
  readonly scheme: 'http' | 'https' | undefined;
  /** The `X-Forwarded-Host` value (host and optional port), not parsed yet. */
  readonly authority: string | undefined;
  readonly port: number | undefined;
}

/**
 * Reads `X-Forwarded-For/-Proto/-Host/-Port` of a request whose peer is a trusted proxy.
 *
 * The client is the right-most `X-Forwarded-For` address that is not itself a trusted proxy.
 * The other three are taken from the same hop: each proxy adds one entry to each header, so the
 * entry at the client's distance from the right of `X-Forwarded-For` is the one written by the
 * proxy that met the client. With fewer entries (proxies that replace the header instead of
 * adding to it) it is the left-most one, which a trusted proxy wrote. The left-most entry of a
 * longer list is never believed: any client can send it.
 *
 * `X-Forwarded-Port` must be 1–65535; anything else is a 400, as an invalid forwarded host is.
 */
export function readForwardedHeaders(headers: HeaderBag, peer: string, proxies: TrustedProxies): ForwardedRequest {
  const chain = entriesOf(headers, 'x-forwarded-for');
  let clientIp = peer;
  // Which trusted proxy met the client: 0 = the peer itself, 1 = the proxy before it…
  let hop = 0;
  for (let i = chain.length - 1; i >= 0; i--) {
    const address = unmapIpv4(chain[i]!);
    if (isIP(address) === 0) break;
    clientIp = address;
    hop = chain.length - 1 - i;
    if (!proxies.has(address)) break;
  }
  const proto = entryAtHop(headers, 'x-forwarded-proto', hop)?.toLowerCase();
  const port = entryAtHop(headers, 'x-forwarded-port', hop);
  return {
    clientIp,
    scheme: proto === 'https' || proto === 'http' ? proto : undefined,
    authority: entryAtHop(headers, 'x-forwarded-host', hop),
    port: port === undefined ? undefined : forwardedPort(port),
  };
}

function forwardedPort(value: string): number {
  const port = /^\d{1,5}$/.test(value) ? Number(value) : 0;
  if (!isPortNumber(port)) throw new InvalidRequestError('X-Forwarded-Port is not a port number from 1 to 65535.');
  return port;
}

/** The entry `hop` places from the right (the left-most when there are fewer); `undefined` when empty. */
function entryAtHop(headers: HeaderBag, name: string, hop: number): string | undefined {
  const entries = entriesOf(headers, name);
  if (entries.length === 0) return undefined;
  const entry = entries[Math.max(0, entries.length - 1 - hop)]!;
  return entry === '' ? undefined : entry;
}

/** Every comma-separated entry of every field `name`, trimmed, in order. */
function entriesOf(headers: HeaderBag, name: string): string[] {
  const values = headers.getAll(name);
  if (values.length === 0) return [];
  return values
    .join(',')
    .split(',')
    .map((entry) => entry.trim());
}
