import type { CookieOptions } from './cookie-options.js';

/** Thrown for a cookie `response.cookies` refuses to write: a programming error, answered 500. */
export class InvalidCookieError extends TypeError {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidCookieError';
  }
}

/** RFC 6265 §4.1.1 `token`: a name with no separator, space or control character. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A domain made of labels: letters, digits, hyphens and dots, no leading or trailing dot but one optional leading dot. */
const DOMAIN = /^\.?[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;
/** A path: printable ASCII without `;` (which would start another attribute). */
const PATH = /^\/[\u0021-\u003a\u003c-\u007e]*$/;

/**
 * Whether the cookie must be `Secure` whatever the request: its name carries the `__Secure-` or
 * `__Host-` prefix, or it asks for `SameSite=None` or `Partitioned`, which browsers refuse without
 * it. Such a cookie is `Secure` unless `secure: false` is given, which `validateCookie` refuses.
 */
export function requiresSecure(name: string, options: CookieOptions): boolean {
  return hasSecurePrefix(name) || options.sameSite === 'none' || options.partitioned === true;
}

function hasSecurePrefix(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.startsWith('__secure-') || lower.startsWith('__host-');
}

/**
 * Checks what `cookie`'s serialiser checks too (names, domains, paths), with messages that say
 * which rule failed, plus the rules it leaves to the caller: the `__Secure-` and `__Host-`
 * prefixes, and the attributes that require `Secure`. `secure` left out means it follows the
 * request, which `requiresSecure` rules out for the cookies these rules are about.
 */
export function validateCookie(name: string, options: Required<Pick<CookieOptions, 'path'>> & CookieOptions): void {
  if (!TOKEN.test(name)) throw new InvalidCookieError(`Cookie name ${JSON.stringify(name)} is not an HTTP token.`);
  if (!PATH.test(options.path))
    throw new InvalidCookieError(`Cookie path ${JSON.stringify(options.path)} must start with "/" and hold no ";" or control character.`);
  if (options.domain !== undefined && !DOMAIN.test(options.domain)) {
    throw new InvalidCookieError(`Cookie domain ${JSON.stringify(options.domain)} is not a domain name.`);
  }
  if (options.maxAge !== undefined && !Number.isInteger(options.maxAge)) {
    throw new InvalidCookieError(`Cookie maxAge must be a whole number of seconds, got ${options.maxAge}.`);
  }
  const notSecure = options.secure === false;
  if (hasSecurePrefix(name) && notSecure) {
    throw new InvalidCookieError(`Cookie "${name}": the ${name.slice(0, name.indexOf('-') + 1)} prefix requires Secure.`);
  }
  if (name.toLowerCase().startsWith('__host-') && (options.domain !== undefined || options.path !== '/')) {
    throw new InvalidCookieError(`Cookie "${name}": the __Host- prefix requires Path=/ and no Domain.`);
  }
  if (options.sameSite === 'none' && notSecure) throw new InvalidCookieError(`Cookie "${name}": SameSite=None requires Secure.`);
  if (options.partitioned === true && notSecure) throw new InvalidCookieError(`Cookie "${name}": Partitioned requires Secure.`);
}
