import { REDACTED, redactCredentials } from './redact-credentials.js';

/**
 * Names of query parameters and headers whose values are secrets. A name matches when, lowercased
 * with `_`, `.`, `+` or a space read as `-`, it is one of these or ends with `-` and one of these: `password`,
 * `user_password`, `access_token`, `X-Amz-Security-Token`, `X-Amz-Signature`, `api_key`.
 */
export const DEFAULT_SECRET_NAMES: readonly string[] = [
  'password',
  'passwd',
  'pwd',
  'pass',
  'secret',
  'token',
  'api-key',
  'apikey',
  'auth',
  'jwt',
  'session',
  'sessionid',
  'session-id',
  'sid',
  'signature',
  'sig',
  'credential',
  'credentials',
  'private-key',
  'authorization-code',
];

/**
 * Names whose values are secrets only as the whole name: `code` is an OAuth authorization code
 * (traded for a token by whoever holds it), while `status_code` or `zip_code` are not secrets.
 */
export const DEFAULT_EXACT_SECRET_NAMES: readonly string[] = ['code'];

/** `name=value` in a query string, a form body or a log line; the name is decided in the replacement (linear). */
const PARAMETER = /(?<=^|[?&;\s])([^\s=&;?#]{1,100})=([^\s&;#"'<>]*)/g;
/** The userinfo of a URL (`https://user:password@host`); a run up to the first delimiter, decided in one pass. */
const USERINFO = /(?<=:\/\/)[^\s/?#@]+@/g;

export interface TextRedactorOptions {
  /** Names of parameters holding secrets, matched whole or as the last part; default `DEFAULT_SECRET_NAMES`. */
  secretNames?: Iterable<string>;
  /** Names of parameters holding secrets, matched whole only; default `DEFAULT_EXACT_SECRET_NAMES`. */
  exactSecretNames?: Iterable<string>;
}

/**
 * Hides secrets in text meant for people (a log line, a profile, an error message quoting a URL):
 * values of parameters named like a secret (`password=…`, `access_token=…`, `code=…`, in a URL, a
 * query string or prose, their names percent- or form-encoded too), the userinfo of URLs
 * (`https://user:pass@host`, a `Referer`), and bearer-shaped credentials (`redactCredentials`).
 * Takes time linear in the text's length.
 */
export class TextRedactor {
  readonly secretNames: ReadonlySet<string>;
  readonly exactSecretNames: ReadonlySet<string>;
  /** The names as one pattern: a name is tested in one pass, without building strings (a query may hold thousands). */
  readonly #secretName: RegExp;
  /** Any of the names inside a text: without one (decoded too), a text has no `name=value` to hide. */
  readonly #secretWord: RegExp;

  constructor(options: TextRedactorOptions = {}) {
    this.secretNames = new Set([...(options.secretNames ?? DEFAULT_SECRET_NAMES)].map(normaliseName));
    this.exactSecretNames = new Set([...(options.exactSecretNames ?? DEFAULT_EXACT_SECRET_NAMES)].map(normaliseName));
    const suffixes = alternation(this.secretNames);
    const exact = alternation(this.exactSecretNames);
    // Whole name, or its last separated parts: `(anything separator)? word` to the end.
    this.#secretName = new RegExp(`^(?:(?:[^]*[-_.+\\s])?(?:${suffixes})|(?:${exact}))$`, 'i');
    this.#secretWord = new RegExp(`${suffixes}|${exact}`, 'i');
  }

  /** Whether a query parameter (or header) of this name holds a secret. */
  isSecretName(name: string): boolean {
    return this.#secretName.test(name);
  }

  text(value: string): string {
    let out = value;
    if (out.includes('=') && this.#mayNameSecret(out)) {
      out = out.replace(PARAMETER, (pair, name: string) =>
        this.isSecretName(name) || this.#isEncodedSecretName(name) ? `${name}=${REDACTED}` : pair,
      );
    }
    if (out.includes('://')) out = out.replace(USERINFO, `${REDACTED}@`);
    return redactCredentials(out);
  }

  #mayNameSecret(text: string): boolean {
    if (this.#secretWord.test(text)) return true;
    if (!text.includes('%')) return false;
    try {
      return this.#secretWord.test(decodeURIComponent(text));
    } catch {
      return true;
    }
  }

  /** A name as sent (`pass%77ord`, `api+key`), decoded; undecodable names only match as they are. */
  #isEncodedSecretName(name: string): boolean {
    if (!name.includes('%') && !name.includes('+')) return false;
    try {
      return this.isSecretName(decodeURIComponent(name.replace(/\+/g, ' ')));
    } catch {
      return false;
    }
  }
}

/** The default rules, for text any log line may quote (`redactSecrets`). */
const defaultRedactor = new TextRedactor();

/** `text` with the default rules of `TextRedactor`: secret-named values, URL userinfo, bearer credentials. */
export function redactSecrets(text: string): string {
  return defaultRedactor.text(text);
}

/** Names as one alternation, each `-` matching any separator; one that never matches when there are none. */
function alternation(names: ReadonlySet<string>): string {
  return [...names].map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/-/g, '[-_.+\\s]')).join('|') || '(?!)';
}

function normaliseName(name: string): string {
  return name.toLowerCase().replace(/[_.\s]/g, '-');
}
