import { decodePath } from './decode-path.js';
import { BadRequestHttpError } from '../error/http-error.js';
import type { RequestSignalSource } from './cancellation.js';
import { HeaderBag, type HeaderInit } from './header-bag.js';
import { nullLogger, type Logger } from '../log/logger.js';
import { AttributeBag } from './attribute-bag.js';
import { StackOfRequests } from './request-stack.js';
import { RequestCookies } from './cookies/request-cookies.js';

/** The request body, read lazily by whoever needs it (the adapter supplies it). */
export interface RequestBody {
  /** Reads the whole body; rejects with a 413 `HttpError` past the adapter's size limit. */
  bytes(): Promise<Uint8Array>;
  text(): Promise<string>;
  /** The raw chunks, for streaming consumers; a body can be consumed once. */
  stream(): AsyncIterable<Uint8Array>;
}

export type Scheme = 'http' | 'https';

/** The client's end of the transport, as the adapter sees it (a socket, an HTTP/2 stream). */
export interface ClientConnection {
  /** True once the transport is closed: nobody will read an answer. */
  readonly destroyed: boolean;
}

/** For requests built without a transport (tests, sub-requests of such): never gone. */
const NO_TRANSPORT: ClientConnection = { destroyed: false };

export interface RequestInit {
  method: string;
  scheme?: Scheme;
  /** Host name or address without the port; IPv6 in brackets. Lower-cased on the way in. */
  host?: string;
  /** Defaults to 80 for http, 443 for https. */
  port?: number;
  /** The path as received: percent-encoded, without the query string. */
  path: string;
  /** The query string without the leading `?`. */
  query?: string;
  headers?: HeaderInit;
  clientIp?: string;
  /** `1.0`, `1.1` or `2.0`. */
  protocolVersion?: string;
  body?: RequestBody | null;
  attributes?: Iterable<readonly [string, unknown]>;
  defaultLocale?: string;
  /** The transport the request came on, so that costly work can be skipped once its client left. */
  connection?: ClientConnection;
  /** Whether the peer is a proxy the adapter trusts (its forwarded headers were believed). Default false. */
  fromTrustedProxy?: boolean;
  /** What `request.signal` is (see there); without it, a signal that never fires. */
  signal?: RequestSignalSource | undefined;
  /**
   * The method is upper-case and the host lower-case already, as a parser that guarantees it
   * gives them (node's HTTP/1 parser, the node adapter's host check): both are taken as they are
   * instead of being case-folded again. Default false.
   */
  canonicalCase?: boolean;
}

export interface DuplicateOverrides {
  method?: string;
  query?: string;
  attributes?: Iterable<readonly [string, unknown]>;
}

/** Where the kernel stands with a request. */
type HandlingState = typeof NOT_HANDLED | typeof HANDLING | typeof FINISHING | typeof HANDLED;
const NOT_HANDLED = 0;
const HANDLING = 1;
/** Its `kernel.finish_request` has begun: the state of its parent (routing context, locale) applies again. */
const FINISHING = 2;
const HANDLED = 3;

// Set by `Request`'s static block, which can reach its private fields (see `enterRequestStack`).
let enterStack: (request: Request) => void;
let finishOnStack: (request: Request) => void;
let leaveStack: (request: Request) => void;

/**
 * An HTTP request as the kernel sees it. Independent of node:http: adapters build it, and
 * tests can build it from a URL.
 */
export class Request {
  readonly method: string;
  readonly scheme: Scheme;
  readonly host: string;
  readonly port: number;
  /** The path as received, still percent-encoded; never empty. */
  readonly rawPath: string;
  readonly queryString: string;
  readonly headers: HeaderBag;
  readonly clientIp: string;
  readonly protocolVersion: string;
  readonly body: RequestBody | null;
  readonly attributes: AttributeBag;
  readonly connection: ClientConnection;
  /**
   * Whether the request reached the server through a proxy the adapter trusts (Symfony's
   * `isFromTrustedProxy()`): what that proxy says in headers (`X-Forwarded-*`, and for those who
   * choose so, trace context) can be believed. False for a request straight from its client.
   */
  readonly fromTrustedProxy: boolean;
  defaultLocale: string;
  #locale: string | undefined;
  #path: string | undefined;
  #query: URLSearchParams | undefined;
  #logger: Logger | undefined;
  /** The signal once made (see `signal`); until then what it is made from, if anything. */
  #signal: RequestSignalSource | undefined;
  #cookies: RequestCookies | undefined;
  #startTime: number | undefined;
  /** The stack once made (see `requestStack`). */
  #stack: RequestStack | null;
  #state: HandlingState;
  /** The request this one is a copy of (`duplicate`), whose stack it shares. */
  #parent: Request | null;
  /** A copy of this request being handled while the stack is not made, which goes on top of it when it is. */
  #handledCopy: Request | null;

  constructor(init: RequestInit) {
    const canonical = init.canonicalCase === true;
    this.method = canonical ? init.method : init.method.toUpperCase();
    this.scheme = init.scheme ?? 'http';
    this.host = (canonical ? init.host : init.host?.toLowerCase()) ?? 'localhost';
    this.port = init.port ?? (this.scheme === 'https' ? 443 : 80);
    this.rawPath = init.path === '' ? '/' : init.path;
    this.queryString = init.query ?? '';
    this.headers = init.headers instanceof HeaderBag ? init.headers : new HeaderBag(init.headers);
    this.clientIp = init.clientIp ?? '127.0.0.1';
    this.protocolVersion = init.protocolVersion ?? '1.1';
    this.body = init.body ?? null;
    this.attributes = new AttributeBag(init.attributes);
    this.connection = init.connection ?? NO_TRANSPORT;
    this.fromTrustedProxy = init.fromTrustedProxy ?? false;
    this.defaultLocale = init.defaultLocale ?? 'en';
    this.#signal = init.signal;
    this.#stack = null;
    this.#state = NOT_HANDLED;
    this.#parent = null;
    this.#handledCopy = null;
  }

  /**
   * The stack this request is handled on (a copy shares the stack of the request it copies);
   * `null` before the kernel handles it. The stack is made when first asked for, with the requests
   * of the chain being handled on it, main request at the bottom: most requests never make a
   * sub-request, error pages outside debug mode never ask, and neither pays for a stack.
   */
  get requestStack(): RequestStack | null {
    if (this.#stack !== null) return this.#stack;
    const parentStack = this.#parent?.requestStack ?? null;
    // Making its parent's stack put this request on it if it was its parent's `#handledCopy`.
    if (this.#stack === null) {
      if (parentStack !== null) this.#putOn(parentStack);
      else if (this.#state !== NOT_HANDLED) this.#putOn(new RequestStack());
    }
    return this.#stack;
  }

  /** `requestStack` if it was made, without making it: for code that only cleans up after a stack. */
  get existingRequestStack(): RequestStack | null {
    return this.#stack;
  }

  set requestStack(stack: RequestStack | null) {
    this.#stack = stack;
  }

  /**
   * The request this one is a copy of, through any number of `duplicate` calls; itself when it
   * was not made by `duplicate`. For a sub-request, its chain's main request, found without
   * making the request stack (an error page reads the request id there).
   */
  get originalRequest(): Request {
    let request: Request = this;
    while (request.#parent !== null) request = request.#parent;
    return request;
  }

  /**
   * True from the start of this request's `kernel.finish_request` until the kernel lets it go:
   * what its parent set up (the routing context, the locale) applies again.
   */
  get isFinishing(): boolean {
    return this.#state === FINISHING;
  }

  /** Makes `stack` this request's, with it and the copies handled on top of it pushed. */
  #putOn(stack: RequestStack): void {
    for (let request: Request | null = this; request !== null; request = request.#handledCopy) {
      request.#stack = stack;
      if (request.#state === HANDLING || request.#state === FINISHING) stack.push(request);
    }
  }

  static {
    enterStack = (request) => {
      request.#state = HANDLING;
      const parent = request.#parent;
      if (request.#stack === null && parent !== null) {
        if (parent.#stack === null) parent.#handledCopy = request;
        else request.#stack = parent.#stack;
      }
      request.#stack?.push(request);
    };
    finishOnStack = (request) => {
      request.#state = FINISHING;
    };
    leaveStack = (request) => {
      request.#state = HANDLED;
      request.#stack?.pop();
      const parent = request.#parent;
      if (parent !== null && parent.#handledCopy === request) parent.#handledCopy = null;
    };
  }

  /** Builds a request from an absolute URL; handy in tests and for fetch-style runtimes. */
  static fromUrl(url: string | URL, init: Partial<Omit<RequestInit, 'path' | 'query'>> = {}): Request {
    const parsed = typeof url === 'string' ? new URL(url) : url;
    const scheme = parsed.protocol === 'https:' ? 'https' : 'http';
    return new Request({
      method: 'GET',
      scheme,
      host: parsed.hostname.includes(':') ? `[${parsed.hostname}]` : parsed.hostname,
      ...(parsed.port === '' ? {} : { port: Number(parsed.port) }),
      path: parsed.pathname,
      query: parsed.search.slice(1),
      ...init,
    });
  }

  /**
   * The path percent-decoded once (`+` stays `+`). Malformed percent-encoding, or bytes that
   * are not UTF-8, throw a 400 `BadRequestHttpError`.
   */
  get path(): string {
    if (this.#path === undefined) this.#path = decodedPath(this.rawPath);
    return this.#path;
  }

  get query(): URLSearchParams {
    return (this.#query ??= new URLSearchParams(this.queryString));
  }

  /** The cookies of the `Cookie` header, parsed on first read. */
  get cookies(): RequestCookies {
    return (this.#cookies ??= new RequestCookies(this.headers.getAll('cookie')));
  }

  /**
   * `performance.now()` when this request's timing began (`startTiming()`); undefined while
   * nothing times it.
   */
  get startTime(): number | undefined {
    return this.#startTime;
  }

  /**
   * Starts timing this request, unless something did already, and returns the start. What times
   * a request (metrics, the access log, `Server-Timing`) calls it from its first `kernel.request`
   * listener: the first caller reads the clock, the others share that reading, and a request
   * nothing times reads no clock at all.
   */
  startTiming(): number {
    return (this.#startTime ??= performance.now());
  }

  /** Whether the client closed its connection: its answer would go nowhere. */
  get clientGone(): boolean {
    return this.connection.destroyed;
  }

  /**
   * Fires when nobody waits for the answer any more: the client went away before the response
   * finished (reason `ClientGoneError`), or the server is shutting down (`ServerShutdownError`).
   * Hand it to `fetch`, queries and timers so they stop with the request. Made on first use.
   */
  get signal(): AbortSignal {
    const source = this.#signal;
    if (source instanceof AbortSignal) return source;
    const signal = source === undefined ? new AbortController().signal : source.signal;
    this.#signal = signal;
    return signal;
  }

  get isSecure(): boolean {
    return this.scheme === 'https';
  }

  /** `host` or `host:port` when the port is not the scheme's default. */
  get httpHost(): string {
    const defaultPort = this.scheme === 'https' ? 443 : 80;
    return this.port === defaultPort ? this.host : `${this.host}:${this.port}`;
  }

  get schemeAndHttpHost(): string {
    return `${this.scheme}://${this.httpHost}`;
  }

  /** Absolute URL without the query string, path still percent-encoded. */
  get url(): string {
    return this.schemeAndHttpHost + this.rawPath;
  }

  /** Absolute URL with the query string. */
  get uri(): string {
    return this.queryString === '' ? this.url : `${this.url}?${this.queryString}`;
  }

  /**
   * The logger for this request's records: bound to its request id and route once
   * `RequestIdListener` runs (see docs/observability.md); a logger that discards everything before.
   */
  get logger(): Logger {
    return this.#logger ?? nullLogger;
  }

  set logger(logger: Logger) {
    this.#logger = logger;
  }

  get locale(): string {
    return this.#locale ?? this.defaultLocale;
  }

  set locale(locale: string) {
    this.#locale = locale;
  }

  /**
   * A copy for a sub-request: same URL, headers, body and client, new attributes.
   * The copy shares this request's stack, so the kernel knows its parent.
   */
  duplicate(overrides: DuplicateOverrides = {}): Request {
    const method = overrides.method ?? this.method;
    const copy = new Request({
      method,
      scheme: this.scheme,
      host: this.host,
      port: this.port,
      path: this.rawPath,
      query: overrides.query ?? this.queryString,
      headers: new HeaderBag(this.headers),
      clientIp: this.clientIp,
      protocolVersion: this.protocolVersion,
      body: this.body,
      attributes: overrides.attributes ?? this.attributes.entries(),
      defaultLocale: this.defaultLocale,
      connection: this.connection,
      fromTrustedProxy: this.fromTrustedProxy,
      // The parent's, made only if the copy asks for it.
      signal: this,
      // This request's values are canonical already; a method given anew is upper-cased.
      canonicalCase: method === this.method,
    });
    if (this.#locale !== undefined) copy.locale = this.#locale;
    if (this.#logger !== undefined) copy.logger = this.#logger;
    copy.#parent = this;
    copy.#stack = this.#stack;
    return copy;
  }
}

/**
 * The kernel starts handling `request`: it goes on top of its stack, or, while no stack is made,
 * is noted as being handled, to go on the stack `requestStack` makes when asked.
 */
export function enterRequestStack(request: Request): void {
  enterStack(request);
}

/** The kernel begins `request`'s `kernel.finish_request` (`Request.isFinishing`). */
export function finishOnRequestStack(request: Request): void {
  finishOnStack(request);
}

/** The kernel is done with `request`: it leaves its stack. */
export function leaveRequestStack(request: Request): void {
  leaveStack(request);
}

function decodedPath(raw: string): string {
  try {
    return decodePath(raw);
  } catch (cause) {
    throw new BadRequestHttpError(`Malformed percent-encoding in the request path "${raw}".`, { cause });
  }
}

/**
 * The requests being handled: the main request at the bottom, the current sub-request on top
 * (`StackOfRequests`, whose file cannot name `Request`: a request makes the stack it is handled on).
 */
export class RequestStack extends StackOfRequests<Request> {}
