import { InvalidRequestError } from './invalid-request-error.js';

/** A host name pattern: a name, `*.` before a name (any name under it), or an IP address. */
const NAME_PATTERN = /^(\*\.)?[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?$/;

/**
 * The hosts a server answers for, like Symfony's `trusted_hosts`: a request whose host (from
 * `Host`, `:authority` or a trusted proxy's `X-Forwarded-Host`) is not one of them is refused
 * with 400 before the kernel. Without it, a page whose name an attacker re-points to 127.0.0.1
 * (DNS rebinding) can read the server's answers in its visitors' browsers.
 *
 * Each pattern matches the whole host, without the port, case-insensitively:
 * - `api.example.com`: that name only;
 * - `*.example.com`: any name under `example.com` (`a.example.com`, `a.b.example.com`), not
 *   `example.com` itself;
 * - `127.0.0.1`, `::1` or `[::1]`: that address;
 * - a `RegExp`: tested against the whole host (`^(?:…)$` is added), lower-cased, IPv6 in brackets.
 *
 * The same check serves every way a request reaches a kernel (node server, fetch handler, an
 * in-process client): build one and call `check(host)` with the host the request is for.
 */
export class TrustedHosts {
  readonly #names = new Set<string>();
  readonly #suffixes: string[] = [];
  readonly #patterns: RegExp[] = [];

  constructor(patterns: readonly (string | RegExp)[]) {
    for (const pattern of patterns) {
      if (pattern instanceof RegExp) {
        this.#patterns.push(new RegExp(`^(?:${pattern.source})$`, pattern.flags.replace(/[gy]/g, '')));
        continue;
      }
      const host = normalizePattern(pattern);
      if (host.startsWith('*.')) this.#suffixes.push(host.slice(1));
      else this.#names.add(host);
    }
  }

  /** Whether `host` (lower-cased, IPv6 in brackets, no port: `Request.host`) is one of the trusted hosts. */
  allows(host: string): boolean {
    const name = host.endsWith('.') ? host.slice(0, -1) : host;
    if (this.#names.has(name)) return true;
    for (const suffix of this.#suffixes) if (name.endsWith(suffix)) return true;
    for (const pattern of this.#patterns) if (pattern.test(host)) return true;
    return false;
  }

  /** Throws the adapter's 400 (`InvalidRequestError`) unless `allows(host)`. */
  check(host: string): void {
    // The host is not repeated in the answer: it is whatever the client wrote.
    if (!this.allows(host)) throw new InvalidRequestError('The Host header names a host this server does not answer for.');
  }
}

/** A string pattern as `allows` compares it: lower-cased, no trailing dot, IPv6 in brackets. */
function normalizePattern(pattern: string): string {
  const text = pattern.trim().toLowerCase();
  const unbracketed = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (isIPv6(unbracketed)) return `[${unbracketed}]`;
  // A dotted IPv4 address is a name to this pattern too.
  if (NAME_PATTERN.test(text)) return text.endsWith('.') ? text.slice(0, -1) : text;
  throw new TypeError(
    `Trusted host "${pattern}" is not a host name, "*." and a name, or an IP address (no scheme, port or path; a RegExp for anything else).`,
  );
}

/** Whether `text` is an IPv6 address, checked by the URL parser every runtime has (the fetch handler loads no `node:net`). */
function isIPv6(text: string): boolean {
  return text.includes(':') && URL.canParse(`http://[${text}]/`);
}
