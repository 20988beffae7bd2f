import { DEFAULT_EXACT_SECRET_NAMES, DEFAULT_SECRET_NAMES, REDACTED, TextRedactor } from '@switchboard/http-kernel/redaction';
import { SecretMatcher } from './secret-matcher.js';

/** What stored profiles and pages show instead of a secret. */
export { REDACTED };
/** Names of query parameters and headers whose values are secrets (see `TextRedactor`). */
export { DEFAULT_SECRET_NAMES };

/**
 * Headers whose values never reach a profile, plus the response's cookies. Headers named like a
 * secret (`DEFAULT_SECRET_NAMES`: `X-Amz-Security-Token`, `X-Upload-Api-Key`…) are redacted too.
 */
export const DEFAULT_REDACTED_HEADERS: readonly string[] = [
  'authorization',
  'cookie',
  'proxy-authorization',
  'set-cookie',
  'x-api-key',
  'x-auth-token',
  'x-amz-security-token',
  'x-csrf-token',
  'x-xsrf-token',
  // Webhook signatures (GitHub's and those copying it): an HMAC of the body with the shared secret.
  'x-hub-signature',
  'x-hub-signature-256',
];

/** Names secret only as a whole name: `code`, the authorization code of an OAuth redirect (`?code=…&state=…`). */
export const DEFAULT_WHOLE_SECRET_NAMES: readonly string[] = DEFAULT_EXACT_SECRET_NAMES;

/** The profiler's own headers: its tokens are on every response, not secrets, and the pages link them. */
const PROFILER_HEADERS: ReadonlySet<string> = new Set(['x-debug-token', 'x-previous-debug-token']);

export interface RedactorOptions {
  /** Values to hide wherever they occur (key passphrases, signing keys…). */
  secrets?: Iterable<string>;
  /** Header names whose values are never stored; default `DEFAULT_REDACTED_HEADERS`. */
  headers?: Iterable<string>;
  /** Names of query parameters and headers holding secrets; default `DEFAULT_SECRET_NAMES` (and `code`, matched whole). */
  secretNames?: Iterable<string>;
  /** Names holding secrets only as a whole name (any case, `_`/`-` alike); default `DEFAULT_WHOLE_SECRET_NAMES`. */
  wholeSecretNames?: Iterable<string>;
}

/**
 * Removes secrets from profile data: values of sensitive headers by name (listed, or named like a
 * secret), every occurrence of a configured secret (a key passphrase, a signing key) in any string,
 * and what `TextRedactor` hides in any text, as every log line does: values of query parameters
 * named like a secret (`password=…`, `access_token=…`, `code=…`), the userinfo of URLs
 * (`https://user:pass@host`, a `Referer`), and bearer-shaped credentials (a JWT, a `Bearer …` value).
 */
export class Redactor {
  readonly #headers: ReadonlySet<string>;
  readonly #textRedactor: TextRedactor;
  readonly #secrets: readonly string[];
  /** Every secret, found in one pass over a text however many there are. */
  readonly #secretMatcher: SecretMatcher;

  constructor(options: RedactorOptions = {}) {
    this.#headers = new Set([...(options.headers ?? DEFAULT_REDACTED_HEADERS)].map((name) => name.toLowerCase()));
    this.#textRedactor = new TextRedactor({
      ...(options.secretNames === undefined ? {} : { secretNames: options.secretNames }),
      ...(options.wholeSecretNames === undefined ? {} : { exactSecretNames: options.wholeSecretNames }),
    });
    this.#secrets = [...new Set([...(options.secrets ?? [])].filter((secret) => secret !== ''))];
    this.#secretMatcher = new SecretMatcher(this.#secrets);
  }

  /** A redactor that also hides `secrets` (the values of this request's credentials, say). */
  with(secrets: Iterable<string>): Redactor {
    const extra = [...secrets].filter((secret) => secret !== '');
    if (extra.length === 0) return this;
    return new Redactor({
      secrets: [...this.#secrets, ...extra],
      headers: this.#headers,
      secretNames: this.#textRedactor.secretNames,
      wholeSecretNames: this.#textRedactor.exactSecretNames,
    });
  }

  isSensitiveHeader(name: string): boolean {
    const lower = name.toLowerCase();
    return this.#headers.has(lower) || (!PROFILER_HEADERS.has(lower) && this.isSecretName(lower));
  }

  /** Whether a query parameter (or header) of this name holds a secret. */
  isSecretName(name: string): boolean {
    return this.#textRedactor.isSecretName(name);
  }

  /** The value to show for header `name`. */
  header(name: string, value: string): string {
    return this.isSensitiveHeader(name) ? REDACTED : this.text(value);
  }

  /** The value to show for query parameter `name` (decoded). */
  parameter(name: string, value: string): string {
    return this.isSecretName(name) ? REDACTED : this.text(value);
  }

  text(value: string): string {
    return this.#textRedactor.text(this.#secretMatcher.replace(value, REDACTED));
  }

  /** Redacts every string in plain data (arrays, objects, strings); object keys included. */
  deep<T>(value: T): T {
    return this.#walk(value, 0) as T;
  }

  /**
   * Hides the values of keys named like secrets in plain data (a log context's `{ password }`,
   * `{ query: { api_key } }`), at any depth. For data whose keys are the caller's own, not a
   * profile's fields (a profile's `token` is no secret).
   */
  namedValues<T>(value: T): T {
    return this.#walkNames(value, 0) as T;
  }

  #walkNames(value: unknown, depth: number): unknown {
    if (value === null || typeof value !== 'object' || depth > 64) return value;
    if (Array.isArray(value)) return value.map((item) => this.#walkNames(item, depth + 1));
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, this.isSecretName(key) ? REDACTED : this.#walkNames(item, depth + 1)]),
    );
  }

  /**
   * Copies only what holds something to hide: a list or plain object whose items come back
   * unchanged is returned as it is (profile data is mostly clean, and copying it all was most of
   * the cost of saving a profile). Other objects are turned into plain ones, as before.
   */
  #walk(value: unknown, depth: number): unknown {
    if (typeof value === 'string') return this.text(value);
    if (value === null || typeof value !== 'object' || depth > 64) return value;
    if (Array.isArray(value)) return this.#walkList(value, depth);
    const record = value as Record<string, unknown>;
    const proto: unknown = Object.getPrototypeOf(record);
    const keys = Object.keys(record);
    let entries: Array<[string, unknown]> | null = proto === Object.prototype || proto === null ? null : [];
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const item = record[key];
      const shownKey = this.text(key);
      const shownItem = this.#walk(item, depth + 1);
      if (entries === null && (shownKey !== key || shownItem !== item)) {
        entries = keys.slice(0, i).map((earlier): [string, unknown] => [earlier, record[earlier]]);
      }
      entries?.push([shownKey, shownItem]);
    }
    // fromEntries defines own properties: a key named `__proto__` stays a key.
    return entries === null ? record : Object.fromEntries(entries);
  }

  #walkList(items: readonly unknown[], depth: number): readonly unknown[] {
    let copy: unknown[] | null = null;
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      const shown = this.#walk(item, depth + 1);
      if (copy === null && shown !== item) copy = items.slice(0, i);
      copy?.push(shown);
    }
    return copy ?? items;
  }
}

/**
 * Credentials a request carried, to be redacted wherever they reappear in its profile (a log
 * message, an error header quoting the URL): the whole value of a sensitive header and its parts
 * (`Bearer <token>`, each cookie value), the values of query parameters named like secrets, and the
 * userinfo of URLs in headers (a `Referer`); each as sent, decoded and percent-encoded.
 */
export function credentialsOf(
  headerValues: Iterable<readonly [string, readonly string[]]>,
  query: Iterable<readonly [string, string]>,
  redactor: Redactor,
): string[] {
  const found: string[] = [];
  for (const [name, values] of headerValues) {
    for (const value of values) {
      found.push(...userinfoOf(value));
      if (!redactor.isSensitiveHeader(name)) continue;
      found.push(value);
      const scheme = /^\s*\S+\s+(.+)$/.exec(value);
      if (scheme !== null) found.push(scheme[1]!.trim());
      for (const pair of value.split(';')) {
        const cookieValue = pair.slice(pair.indexOf('=') + 1).trim();
        if (pair.includes('=') && cookieValue.length >= 4) found.push(cookieValue);
      }
    }
  }
  for (const [name, value] of query) if (redactor.isSecretName(name)) found.push(value);
  // Shorter values would hide every occurrence of common words; a short secret is still hidden where it is named.
  return [...new Set(found.flatMap(encodings))].filter((value) => value.length >= 4);
}

/** The user name and password of a URL (as written in it), when the text is one. */
function userinfoOf(text: string): string[] {
  if (!text.includes('@') || !URL.canParse(text)) return [];
  const url = new URL(text);
  return [url.username, url.password].filter((part) => part !== '');
}

/** A value as sent, decoded, and percent-encoded (an error message quoting a URL encodes it again). */
function encodings(value: string): string[] {
  let decoded = value;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    // Not percent-encoded: the value as it is.
  }
  return [value, decoded, encodeURIComponent(value), encodeURIComponent(decoded)];
}
