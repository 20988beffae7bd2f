import type { HeaderInit } from './header-bag.js';
import { defaultResponseHeaders, ResponseHeaderBag } from './response-header-bag.js';
import { ResponseCookies } from './cookies/response-cookies.js';
import type { Request } from './request.js';

/** A body the adapter can write: text, bytes, a stream of chunks, or nothing. */
export type ResponseBody = string | Uint8Array | AsyncIterable<Uint8Array | string> | null;

/**
 * An HTTP response. Every response carries a `Date` header from the moment it is built, and a
 * `Cache-Control` that follows what its code states (`ResponseHeaderBag`).
 */
export class Response {
  status: number;
  readonly headers: ResponseHeaderBag;
  #body: ResponseBody;
  #cookies: ResponseCookies | undefined;

  constructor(body: ResponseBody = '', status = 200, headers?: HeaderInit) {
    this.#body = body;
    this.status = status;
    if (headers === undefined) {
      this.headers = defaultResponseHeaders();
      return;
    }
    this.headers = headers instanceof ResponseHeaderBag ? headers : new ResponseHeaderBag(headers);
  }

  /** What the adapter writes. */
  get body(): ResponseBody {
    return this.#body;
  }

  set body(body: ResponseBody) {
    this.#body = body;
  }

  /** Sets and deletes cookies through this response's `Set-Cookie` headers, checked and with safe defaults. */
  get cookies(): ResponseCookies {
    return (this.#cookies ??= new ResponseCookies(this.headers));
  }

  /**
   * Readies the response for the request it answers: cookies set without `secure` get their
   * `Set-Cookie` lines, `Secure` when the request is secure. The kernel calls it before
   * `kernel.response` (and after, for a response a listener put in place); a kernel of your own
   * calls it before handing the response back. Repeated calls do nothing; a response that set no
   * cookie costs nothing.
   */
  prepare(request: Pick<Request, 'isSecure'>): this {
    this.#cookies?.prepare(request.isSecure);
    return this;
  }

  get isInformational(): boolean {
    return this.status >= 100 && this.status < 200;
  }

  get isSuccessful(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  get isRedirection(): boolean {
    return this.status >= 300 && this.status < 400;
  }

  get isClientError(): boolean {
    return this.status >= 400 && this.status < 500;
  }

  get isServerError(): boolean {
    return this.status >= 500 && this.status < 600;
  }

  /** 1xx, 204 and 304 carry no body. */
  get isEmpty(): boolean {
    return this.isInformational || this.status === 204 || this.status === 304;
  }
}

/**
 * A response whose body is `JSON.stringify(data)`, written when the body is first read (by the
 * adapter, as it writes the response): until then `data` is the value itself, so a
 * `kernel.response` listener can read or filter it without parsing the text back. Setting `data`
 * again rewrites the body; setting `body` replaces it, and `data` no longer describes it
 * (`writtenFromData`). A subclass writes data another way by overriding `serialize`.
 */
export class JsonResponse extends Response {
  #data: unknown;
  /** Whether the body is, or will be, written from `#data`. */
  #fromData: boolean;
  /**
   * The body once written or set, `undefined` while it is still to be written from `#data`: kept
   * here, not through `super.body` (docs/decisions.md, "Response filtering").
   */
  #written: ResponseBody | undefined;

  constructor(data: unknown, status = 200, headers?: HeaderInit, contentType = 'application/json') {
    // Without headers of its own, the bag is made with its pairs at once: what every JSON answer pays.
    super('', status, headers ?? defaultResponseHeaders('content-type', contentType));
    this.#data = data;
    this.#fromData = true;
    this.#written = undefined;
    if (headers !== undefined && !this.headers.has('content-type')) this.headers.set('content-type', contentType);
  }

  get data(): unknown {
    return this.#data;
  }

  set data(data: unknown) {
    this.#data = data;
    this.#fromData = true;
    this.#written = undefined;
  }

  /** Whether `data` describes the body: false once `body` was set directly. */
  get writtenFromData(): boolean {
    return this.#fromData;
  }

  override get body(): ResponseBody {
    if (this.#written === undefined) this.#written = this.serialize(this.#data);
    return this.#written;
  }

  override set body(body: ResponseBody) {
    this.#fromData = false;
    this.#written = body;
  }

  /** The body of `data`. */
  protected serialize(data: unknown): string {
    return JSON.stringify(data);
  }
}

/** A redirect to `location` (301, 302, 303, 307 or 308). */
export class RedirectResponse extends Response {
  constructor(
    readonly location: string,
    status = 302,
    headers?: HeaderInit,
  ) {
    if (![301, 302, 303, 307, 308].includes(status)) {
      throw new RangeError(`A redirect needs a 3xx redirect status, got ${status}.`);
    }
    super('', status, headers);
    this.headers.set('location', location);
  }
}
