/** A `Host` (or `:authority`) value split into host and optional port. */
export interface HostAndPort {
  /** Lower-cased; an IPv6 address keeps its brackets. */
  readonly host: string;
  readonly port: number | undefined;
}

/**
 * A DNS name or IPv4 address (letters, digits, `-`, `_`, `.`) or a bracketed IPv6 address, then
 * an optional `:port`. RFC 3986 would also let percent-encoding and sub-delimiters (`%`, `,`,
 * `;`, `'`, `(`…) through, which no real host name holds and which are trouble once the host is
 * written into a link, a redirect or a log line: they are refused, as are spaces, `/`, `@` and a
 * second colon.
 */
const HOST_PATTERN = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(?::(\d{1,5}))?$/;

/** Parses a `Host` header value; `null` when it is not a valid host (or its port is not 1–65535). */
export function parseHostHeader(value: string): HostAndPort | null {
  const match = HOST_PATTERN.exec(value);
  if (match === null) return null;
  const port = match[2] === undefined ? undefined : Number(match[2]);
  if (port !== undefined && !isPortNumber(port)) return null;
  return { host: match[1]!.toLowerCase(), port };
}

/** 1–65535: port 0 names no service, and a client never reaches one. */
export function isPortNumber(port: number): boolean {
  return Number.isInteger(port) && port >= 1 && port <= 65535;
}
