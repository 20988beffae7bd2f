import type { IncomingMessage } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';
import { isIP } from 'node:net';
import type { Readable } from 'node:stream';
import { HeaderBag, Request, type RequestSignalSource, type Scheme } from '@switchboard/http-kernel';
import type { PublicOrigin } from './public-origin.js';
import { readForwardedHeaders } from './forwarded-headers.js';
import { parseHostHeader, type HostAndPort } from './host-header.js';
import { IncomingBody } from './incoming-body.js';
import { InvalidRequestError } from './invalid-request-error.js';
import { parseRequestTarget } from './request-target.js';
import type { TrustedHosts } from './trusted-hosts.js';
import { TrustedProxies, unmapIpv4 } from './trusted-proxies.js';

/** What the factory reads of the adapter's options, resolved (defaults applied). */
export interface RequestFactoryOptions {
  readonly bodyLimit: number;
  readonly bodyTimeout: number;
  readonly trustedProxies: readonly string[];
  /** `null` when every host is accepted. */
  readonly trustedHosts: TrustedHosts | null;
  readonly origin: PublicOrigin | null;
}

/** A request as node:http (HTTP/1.x) or the node:http2 compatibility API presents it. */
export type NodeIncomingRequest = IncomingMessage | Http2ServerRequest;

/**
 * What the factory reads of an HTTP/1 request head and its connection. An `IncomingMessage` has
 * this shape; an in-process client (`@switchboard/testing`) describes its requests with it, so they
 * go through the same checks as those a server receives.
 */
export interface RequestHead {
  readonly method?: string | undefined;
  /** The request target as sent (`/items?page=2`). */
  readonly url?: string | undefined;
  readonly httpVersion: string;
  readonly httpVersionMajor: number;
  readonly httpVersionMinor: number;
  /** Names and values alternating, as received. */
  readonly rawHeaders: readonly string[];
  readonly socket: {
    /** True for TLS. */
    readonly encrypted?: boolean;
    readonly remoteAddress?: string | undefined;
    readonly localAddress?: string | undefined;
    readonly localPort?: number | undefined;
  };
}

/**
 * Builds the kernel's `Request` from a node request: path and query exactly as sent, headers
 * (pseudo-headers left out), scheme from the socket, host from `Host` or `:authority`, client
 * address from the socket, `X-Forwarded-*` only from trusted proxies, and a body read lazily.
 * Throws `InvalidRequestError` for what cannot be a request (invalid or repeated host, a host not
 * among the trusted hosts, no path, HTTP/1 framing that cannot be trusted, an HTTP version other
 * than 1.x or 2).
 */
export class NodeRequestFactory {
  readonly #options: RequestFactoryOptions;
  readonly #proxies: TrustedProxies;
  // The same Host value arrives again and again; its parse is remembered (a pure function's result).
  #lastHostValue = '';
  #lastHost: HostAndPort | null = null;

  constructor(options: RequestFactoryOptions) {
    this.#options = options;
    this.#proxies = new TrustedProxies(options.trustedProxies);
  }

  /** `signal`: what the request's `signal` comes from (see `RequestCancellation`). */
  create(req: NodeIncomingRequest, signal?: RequestSignalSource): Request {
    // An HTTP/2 `:method` is as the client sent it; node's HTTP/1 parser knows methods in upper case only.
    if (isHttp2(req)) return this.#build(req.method.toUpperCase(), req, req, req.stream.endAfterHeaders ? null : req, req.stream, signal);
    return this.#build(req.method ?? 'GET', req, null, req, req.socket, signal);
  }

  /**
   * The same rules for an HTTP/1 request that no node server received (an in-process client):
   * `body` is read lazily under the same limits when the head declares one (`Content-Length`).
   */
  createFromHead(head: RequestHead, body: Readable | null): Request {
    return this.#build((head.method ?? 'GET').toUpperCase(), head, null, body, undefined);
  }

  /**
   * `method`: upper-case. `http2Request`: the same request when it came over HTTP/2 (its
   * `:authority` is read), else `null`.
   */
  #build(
    method: string,
    req: RequestHead,
    http2Request: Http2ServerRequest | null,
    bodySource: Readable | null,
    connection: Request['connection'] | undefined,
    signal?: RequestSignalSource,
  ): Request {
    const http2 = http2Request !== null;
    // Node's HTTP/1 parser also lets through request lines naming HTTP/0.9 and HTTP/2.0.
    if (!http2 && req.httpVersionMajor !== 1) {
      throw new InvalidRequestError('This server speaks HTTP/1.0 and HTTP/1.1 here (HTTP/2 only over TLS, negotiated).', 505);
    }
    const target = parseRequestTarget(req.url ?? '');
    if (target === null) throw new InvalidRequestError('The request target is not a path.');
    if (target.path === '*' && method !== 'OPTIONS') throw new InvalidRequestError('Only OPTIONS may have "*" as its target.');

    const framing = readFraming(req.rawHeaders);
    if (framing.hostCount > 1) throw new InvalidRequestError('The request has more than one Host header.');
    if (!http2) checkHttp1Framing(req, framing);
    const headers = HeaderBag.fromRawList(req.rawHeaders);

    const socket = req.socket;
    let scheme: Scheme = socket.encrypted === true ? 'https' : 'http';
    let clientIp = unmapIpv4(socket.remoteAddress ?? '');
    let authority = http2 ? http2Authority(http2Request, framing) : framing.host;
    let forwardedPort: number | undefined;
    const fromTrustedProxy = !this.#proxies.isEmpty && this.#proxies.has(clientIp);

    if (fromTrustedProxy) {
      const forwarded = readForwardedHeaders(headers, clientIp, this.#proxies);
      clientIp = forwarded.clientIp;
      scheme = forwarded.scheme ?? scheme;
      authority = forwarded.authority ?? authority;
      forwardedPort = forwarded.port;
    }

    let host: string;
    let port: number | undefined;
    if (authority === undefined || authority === '') {
      // HTTP/1.0 may omit Host (Node rejects an HTTP/1.1 request without one): the address it reached.
      const local = (socket.localAddress ?? '127.0.0.1').toLowerCase();
      host = isIP(local) === 6 ? `[${local}]` : local;
      port = socket.localPort;
    } else {
      const parsed = this.#parseHost(authority);
      if (parsed === null) throw new InvalidRequestError('The Host header is not a valid host.');
      host = parsed.host;
      port = parsed.port;
    }
    // The host the client asked for, even when a base URL names the public one: that is what a
    // rebound DNS name changes.
    this.#options.trustedHosts?.check(host);
    if (forwardedPort !== undefined) port = forwardedPort;
    const origin = this.#options.origin;
    if (origin !== null) {
      scheme = origin.scheme;
      host = origin.host;
      port = origin.port;
    }

    return new Request({
      method,
      scheme,
      host,
      port: port ?? (scheme === 'https' ? 443 : 80),
      path: target.path,
      query: target.query,
      headers,
      clientIp,
      protocolVersion: req.httpVersion,
      body: this.#body(bodySource, framing, http2),
      connection,
      fromTrustedProxy,
      signal,
      // The method is upper-case (see `create`), and every host above is lower-cased.
      canonicalCase: true,
    });
  }

  #parseHost(value: string): HostAndPort | null {
    if (value !== this.#lastHostValue) {
      this.#lastHost = parseHostHeader(value);
      this.#lastHostValue = value;
    }
    return this.#lastHost;
  }

  /** `source` is null when HTTP/2 said the stream ends after the headers. */
  #body(source: Readable | null, framing: Framing, http2: boolean): IncomingBody | null {
    if (source === null) return null;
    if (!http2 && framing.contentLength === undefined && framing.transferEncoding === undefined) return null;
    const declared = framing.contentLength;
    return new IncomingBody(source, declared === undefined ? undefined : Number(declared), {
      maxBytes: this.#options.bodyLimit,
      timeoutMs: this.#options.bodyTimeout,
    });
  }
}

/** Whether `req` came over HTTP/2 (the compatibility API), whatever version an HTTP/1 request line claims. */
export function isHttp2(req: NodeIncomingRequest): req is Http2ServerRequest {
  return req.httpVersionMajor === 2 && 'stream' in req;
}

/** What the adapter itself needs from the headers, read straight from the raw list (the bag reads it only if someone asks). */
interface Framing {
  readonly host: string | undefined;
  readonly hostCount: number;
  readonly contentLength: string | undefined;
  /** The `Transfer-Encoding` value (several fields joined), `undefined` without one. */
  readonly transferEncoding: string | undefined;
}

/**
 * Node's parser already refuses conflicting `Content-Length`s and `Content-Length` with
 * `Transfer-Encoding`; what it lets through is checked here (RFC 9112 §3.2 and §6.1).
 */
function checkHttp1Framing(req: RequestHead, framing: Framing): void {
  if (framing.hostCount === 0 && req.httpVersionMinor >= 1) throw new InvalidRequestError('The request has no Host header.');
  const codings = framing.transferEncoding;
  if (codings === undefined) return;
  if (req.httpVersionMinor === 0) throw new InvalidRequestError('An HTTP/1.0 request cannot use Transfer-Encoding.');
  // Node reads chunked only, and only as the last coding; the request is refused before its body breaks the parser.
  if (
    codings
      .slice(codings.lastIndexOf(',') + 1)
      .trim()
      .toLowerCase() !== 'chunked'
  ) {
    throw new InvalidRequestError('The request body uses a transfer coding this server does not support.', 501);
  }
}

function readFraming(raw: readonly string[]): Framing {
  let host: string | undefined;
  let hostCount = 0;
  let contentLength: string | undefined;
  let transferEncoding: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    // The length rules out almost every other header before any case folding.
    switch (name.length) {
      case 4:
        if (isNamed(name, 'host') && hostCount++ === 0) host = raw[i + 1];
        break;
      case 14:
        if (contentLength === undefined && isNamed(name, 'content-length')) contentLength = raw[i + 1];
        break;
      case 17:
        if (isNamed(name, 'transfer-encoding'))
          transferEncoding = transferEncoding === undefined ? raw[i + 1] : `${transferEncoding}, ${raw[i + 1]}`;
        break;
    }
  }
  return { host, hostCount, contentLength, transferEncoding };
}

/** Whether `name` is `lowerCaseName` in any case: compared without making a lower-case copy of it. */
function isNamed(name: string, lowerCaseName: string): boolean {
  if (name.length !== lowerCaseName.length) return false;
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    const folded = code >= 65 && code <= 90 ? code + 32 : code; // A–Z → a–z
    if (folded !== lowerCaseName.charCodeAt(i)) return false;
  }
  return true;
}

/**
 * The host of an HTTP/2 request: `:authority`, else a `Host` header. Both present and naming
 * different hosts is a malformed request (RFC 9113 §8.3.1): which one would a check have seen?
 */
function http2Authority(req: Http2ServerRequest, framing: Framing): string | undefined {
  const authority = req.headers[':authority'];
  if (authority === undefined) return framing.host;
  if (framing.host !== undefined && framing.host.toLowerCase() !== authority.toLowerCase()) {
    throw new InvalidRequestError('The request names two different hosts in :authority and Host.');
  }
  return authority;
}
