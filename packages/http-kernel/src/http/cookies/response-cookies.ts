import { stringifySetCookie } from 'cookie';
import type { HeaderBag } from '../header-bag.js';
import type { CookieOptions } from './cookie-options.js';
import { InvalidCookieError, validateCookie } from './cookie-validation.js';

/** A raw control character in a value is a bug or an injection attempt: refused rather than encoded. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is its purpose
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * The cookies a response sets, written straight to its `Set-Cookie` headers (one per cookie; a
 * name set again with the same path and domain replaces the earlier line). Names, paths, domains
 * and prefixes are checked (`InvalidCookieError`); values are percent-encoded where needed and
 * read back decoded by `request.cookies`.
 */
export class ResponseCookies {
  readonly #headers: HeaderBag;
  /** The line this object wrote for each `name;domain;path`, so that setting it again replaces it. */
  readonly #written = new Map<string, string>();

  constructor(headers: HeaderBag) {
    this.#headers = headers;
  }

  set(name: string, value: string, options: CookieOptions = {}): this {
    if (CONTROL.test(value)) throw new InvalidCookieError(`Cookie "${name}": the value holds a control character.`);
    const resolved = { httpOnly: true, secure: true, sameSite: 'lax' as const, path: '/', ...options };
    validateCookie(name, resolved);
    const line = stringifySetCookie({ name, value, ...resolved });
    this.#replace(`${name};${resolved.domain ?? ''};${resolved.path}`, line);
    return this;
  }

  /** Tells the client to drop the cookie: same name, path and domain as it was set with, already expired. */
  delete(name: string, options: Pick<CookieOptions, 'path' | 'domain' | 'secure' | 'partitioned'> = {}): this {
    return this.set(name, '', { ...options, maxAge: 0, expires: new Date(0) });
  }

  /** The `Set-Cookie` lines written so far (by this object or anything else). */
  lines(): string[] {
    return this.#headers.getAll('set-cookie');
  }

  #replace(key: string, line: string): void {
    const earlier = this.#written.get(key);
    this.#written.set(key, line);
    const lines = this.#headers.getAll('set-cookie');
    const at = earlier === undefined ? -1 : lines.indexOf(earlier);
    if (at === -1) {
      this.#headers.append('set-cookie', line);
      return;
    }
    lines[at] = line;
    this.#headers.set('set-cookie', lines);
  }
}
