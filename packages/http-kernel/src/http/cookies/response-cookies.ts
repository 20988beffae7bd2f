import { stringifySetCookie } from 'cookie';
import type { HeaderBag } from '../header-bag.js';
import type { CookieOptions } from './cookie-options.js';
import { InvalidCookieError, requiresSecure, validateCookie } from './cookie-validation.js';

/** A raw control character in a value is a bug or an injection attempt: refused rather than encoded. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is its purpose
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A cookie checked and waiting for its request to say whether it is `Secure`. */
interface HeldCookie {
  readonly name: string;
  readonly value: string;
  readonly options: CookieOptions;
}

/**
 * The cookies a response sets, as its `Set-Cookie` headers (one per cookie; a name set again with
 * the same path and domain replaces the earlier one). Names, paths, domains and prefixes are
 * checked when set (`InvalidCookieError`); values are percent-encoded where needed and read back
 * decoded by `request.cookies`.
 *
 * A cookie whose `Secure` is decided (given, or required by its name or attributes) is written at
 * once. One whose `Secure` follows the request is held until `prepare` says whether the request
 * is secure, then written; the kernel calls it (through `response.prepare(request)`) before
 * `kernel.response`, so its listeners and the adapter see every line. Once prepared, every cookie
 * set is written at once.
 */
export class ResponseCookies {
  readonly #headers: HeaderBag;
  /** Per `name;domain;path`: the line this object wrote, or the cookie it holds for the request. */
  readonly #cookies = new Map<string, string | HeldCookie>();
  /** Whether the request is secure, once the response was prepared for it. */
  #requestIsSecure: boolean | undefined;

  constructor(headers: HeaderBag) {
    this.#headers = headers;
  }

  set(name: string, value: string, options: CookieOptions = {}): this {
    if (CONTROL.test(value)) throw new InvalidCookieError(`Cookie "${name}": the value holds a control character.`);
    const resolved = { httpOnly: true, sameSite: 'lax' as const, path: '/', ...options };
    validateCookie(name, resolved);
    const key = `${name};${resolved.domain ?? ''};${resolved.path}`;
    const secure = options.secure ?? (requiresSecure(name, resolved) ? true : this.#requestIsSecure);
    if (secure === undefined) this.#hold(key, { name, value, options: resolved });
    else this.#write(key, stringifySetCookie({ name, value, ...resolved, secure }));
    return this;
  }

  /** Tells the client to drop the cookie: same name, path and domain as it was set with, already expired. */
  delete(name: string, options: Pick<CookieOptions, 'path' | 'domain' | 'secure' | 'partitioned'> = {}): this {
    return this.set(name, '', { ...options, maxAge: 0, expires: new Date(0) });
  }

  /**
   * The response answers a request that is secure or not: the cookies held for it are written,
   * `Secure` if it is, and so are those set from now on. The first call decides; later ones do
   * nothing.
   */
  prepare(requestIsSecure: boolean): void {
    if (this.#requestIsSecure !== undefined) return;
    this.#requestIsSecure = requestIsSecure;
    for (const [key, cookie] of this.#cookies) {
      if (typeof cookie === 'string') continue;
      this.#write(key, stringifySetCookie({ name: cookie.name, value: cookie.value, ...cookie.options, secure: requestIsSecure }));
    }
  }

  /** The `Set-Cookie` lines written so far (by this object or anything else); cookies held for the request are not among them. */
  lines(): string[] {
    return this.#headers.getAll('set-cookie');
  }

  #hold(key: string, cookie: HeldCookie): void {
    const earlier = this.#cookies.get(key);
    this.#cookies.set(key, cookie);
    if (typeof earlier !== 'string') return;
    const lines = this.#headers.getAll('set-cookie');
    const at = lines.indexOf(earlier);
    if (at === -1) return;
    lines.splice(at, 1);
    if (lines.length === 0) this.#headers.delete('set-cookie');
    else this.#headers.set('set-cookie', lines);
  }

  #write(key: string, line: string): void {
    const earlier = this.#cookies.get(key);
    this.#cookies.set(key, line);
    const lines = typeof earlier === 'string' ? this.#headers.getAll('set-cookie') : [];
    const at = typeof earlier === 'string' ? lines.indexOf(earlier) : -1;
    if (at === -1) {
      this.#headers.append('set-cookie', line);
      return;
    }
    lines[at] = line;
    this.#headers.set('set-cookie', lines);
  }
}
