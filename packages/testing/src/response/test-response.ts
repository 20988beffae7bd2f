import type { Request } from '@switchboard/http-kernel';
import type { RedirectStep } from '../request/redirect-rules.js';
import type { ResponseProfile } from './response-profile.js';

export interface TestResponseInit {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Uint8Array;
  readonly url: string;
  readonly request: Request | null;
  readonly redirects: readonly RedirectStep[];
  readonly profile: ResponseProfile | null;
}

/** A response as a test reads it: everything already received, so reading it twice is fine. */
export class TestResponse {
  readonly status: number;
  readonly headers: Headers;
  /** The whole body as received (empty for HEAD, 204 and 304). */
  readonly body: Uint8Array;
  /** The URL that gave this answer (after the redirects followed). */
  readonly url: string;
  /** The kernel's `Request` as the kernel saw it; `null` when it was answered before the kernel (an invalid Host, `OPTIONS *`). */
  readonly request: Request | null;
  /** Redirects followed to get here, in order (empty unless following redirects). */
  readonly redirects: readonly RedirectStep[];
  /** The profiler's record of this request when the kernel profiles, else `null`. */
  readonly profile: ResponseProfile | null;

  constructor(init: TestResponseInit) {
    this.status = init.status;
    this.headers = init.headers;
    this.body = init.body;
    this.url = init.url;
    this.request = init.request;
    this.redirects = init.redirects;
    this.profile = init.profile;
  }

  text(): string {
    return new TextDecoder().decode(this.body);
  }

  /** The body parsed as JSON; throws a `SyntaxError` that shows the start of the body when it is not JSON. */
  json<T = unknown>(): T {
    const text = this.text();
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new SyntaxError(`The ${this.status} response from ${this.url} is not JSON: ${JSON.stringify(text.slice(0, 200))}`);
    }
  }
}
