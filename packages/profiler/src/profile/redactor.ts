import { REDACTED, redactCredentials } from '@switchboard/http-kernel';

/** What stored profiles and pages show instead of a secret. */
export { REDACTED };

/** Headers whose values never reach a profile , plus the response's cookies. */
export const DEFAULT_REDACTED_HEADERS: readonly string[] = ['authorization', 'cookie', 'proxy-authorization', 'set-cookie'];

/**
 * Removes secrets from profile data: values of sensitive headers by name, every occurrence
 * of a configured secret (a key passphrase, a signing key) in any string, wherever it ended up —
 * a query string, a log context, an error message — and every bearer-shaped credential
 * (`redactCredentials`: a JWT, a `Bearer …` value) sent outside the `Authorization` header.
 */
export class Redactor {
  readonly #headers: ReadonlySet<string>;
  readonly #secrets: readonly string[];

  constructor(secrets: Iterable<string> = [], headers: Iterable<string> = DEFAULT_REDACTED_HEADERS) {
    this.#headers = new Set([...headers].map((name) => name.toLowerCase()));
    // Longest first, so a secret containing another is replaced whole.
    this.#secrets = [...new Set([...secrets].filter((secret) => secret !== ''))].sort((a, b) => b.length - a.length);
  }

  /** A redactor that also hides `secrets` (the values of this request's credentials, say). */
  with(secrets: Iterable<string>): Redactor {
    const extra = [...secrets].filter((secret) => secret !== '');
    if (extra.length === 0) return this;
    return new Redactor([...this.#secrets, ...extra], this.#headers);
  }

  isSensitiveHeader(name: string): boolean {
    return this.#headers.has(name.toLowerCase());
  }

  /** The value to show for header `name`. */
  header(name: string, value: string): string {
    return this.isSensitiveHeader(name) ? REDACTED : this.text(value);
  }

  text(value: string): string {
    let out = value;
    for (const secret of this.#secrets) {
      if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    }
    return redactCredentials(out);
  }

  /** Redacts every string in plain data (arrays, objects, strings); object keys included. */
  deep<T>(value: T): T {
    return this.#walk(value, 0) as T;
  }

  #walk(value: unknown, depth: number): unknown {
    if (typeof value === 'string') return this.text(value);
    if (value === null || typeof value !== 'object' || depth > 64) return value;
    if (Array.isArray(value)) return value.map((item) => this.#walk(item, depth + 1));
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [this.text(key), this.#walk(item, depth + 1)]));
  }
}

/**
 * Credentials a request carried, to be redacted wherever they reappear in its profile: the
 * whole header value and its parts (`Bearer <token>`, each cookie value).
 */
export function credentialsOf(headerValues: Iterable<readonly [string, readonly string[]]>, redactor: Redactor): string[] {
  const found: string[] = [];
  for (const [name, values] of headerValues) {
    if (!redactor.isSensitiveHeader(name)) continue;
    for (const value of values) {
      found.push(value);
      const scheme = /^\s*\S+\s+(.+)$/.exec(value);
      if (scheme !== null) found.push(scheme[1]!.trim());
      for (const pair of value.split(';')) {
        const cookieValue = pair.slice(pair.indexOf('=') + 1).trim();
        if (pair.includes('=') && cookieValue.length >= 4) found.push(cookieValue);
      }
    }
  }
  return found.filter((value) => value.length >= 4);
}
