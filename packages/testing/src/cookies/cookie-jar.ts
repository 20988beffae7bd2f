import { domainMatches, isSecureOrigin, parseSetCookie, type StoredCookie } from './set-cookie.js';

/** What `client.cookies.set` takes besides name and value; host-only on the client's host when `domain` is left out. */
export interface CookieAttributes {
  domain?: string;
  path?: string;
  /** Epoch ms; left out, the cookie lasts as long as the jar. */
  expires?: number;
  secure?: boolean;
  httpOnly?: boolean;
  sameSite?: 'Strict' | 'Lax' | 'None';
}

/**
 * The cookies a test client keeps across requests, with the matching rules of RFC 6265 §5 a test
 * needs: host-only and domain cookies, path prefixes, expiry (`Max-Age` over `Expires`), `Secure`
 * only over https or to a loopback host (as browsers do), the `__Secure-` and `__Host-` prefixes. `HttpOnly` is kept and sent (an HTTP client sees it; only scripts do not). There
 * is no public suffix list: a test talks to its own hosts.
 */
export class CookieJar {
  readonly #cookies = new Map<string, StoredCookie>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Stores what a `Set-Cookie` field says for a response from `url`; ignores a field the rules refuse. */
  store(setCookie: string, url: URL): void {
    const cookie = parseSetCookie(setCookie, url, this.#now());
    if (cookie === null) return;
    const key = keyOf(cookie);
    // An expiry in the past is how a server deletes a cookie (§5.3 step 11).
    if (cookie.expires !== null && cookie.expires <= this.#now()) this.#cookies.delete(key);
    else this.#cookies.set(key, cookie);
  }

  /** The `Cookie` header for a request to `url` (longest paths first, §5.4), or `undefined` when none match. */
  headerFor(url: URL): string | undefined {
    const matching = this.matching(url);
    if (matching.length === 0) return undefined;
    return matching.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ');
  }

  /** Cookies a request to `url` would carry. */
  matching(url: URL): StoredCookie[] {
    const host = url.hostname.toLowerCase();
    const now = this.#now();
    const found: StoredCookie[] = [];
    for (const [key, cookie] of this.#cookies) {
      if (cookie.expires !== null && cookie.expires <= now) {
        this.#cookies.delete(key);
        continue;
      }
      if (cookie.hostOnly ? host !== cookie.domain : !domainMatches(host, cookie.domain)) continue;
      if (!pathMatches(url.pathname, cookie.path)) continue;
      if (cookie.secure && !isSecureOrigin(url)) continue;
      found.push(cookie);
    }
    return found.sort((a, b) => b.path.length - a.path.length || a.created - b.created);
  }

  /** The value of the first live cookie named `name` (any domain and path), or `undefined`. */
  get(name: string): string | undefined {
    return this.all().find((cookie) => cookie.name === name)?.value;
  }

  /** Every live cookie. */
  all(): StoredCookie[] {
    const now = this.#now();
    return [...this.#cookies.values()].filter((cookie) => cookie.expires === null || cookie.expires > now);
  }

  /** Sets a cookie as if `url` had sent it (a session a test starts with). */
  set(name: string, value: string, url: URL, attributes: CookieAttributes = {}): void {
    const parts = [`${name}=${value}`];
    if (attributes.domain !== undefined) parts.push(`Domain=${attributes.domain}`);
    parts.push(`Path=${attributes.path ?? '/'}`);
    if (attributes.expires !== undefined) parts.push(`Expires=${new Date(attributes.expires).toUTCString()}`);
    if (attributes.secure === true) parts.push('Secure');
    if (attributes.httpOnly === true) parts.push('HttpOnly');
    if (attributes.sameSite !== undefined) parts.push(`SameSite=${attributes.sameSite}`);
    this.store(parts.join('; '), url);
  }

  /** Removes the cookies named `name` (every one when left out). */
  clear(name?: string): void {
    for (const [key, cookie] of this.#cookies) if (name === undefined || cookie.name === name) this.#cookies.delete(key);
  }
}

function keyOf(cookie: StoredCookie): string {
  return `${cookie.name}\u0000${cookie.domain}\u0000${cookie.path}`;
}

/** §5.1.4: the same path, or a prefix of it that ends at a `/`. */
function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath.charAt(cookiePath.length) === '/';
}
