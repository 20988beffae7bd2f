/** A `Host` (or `:authority`) value split into host and optional port. */
export interface HostAndPort {
  /** Lower-cased; an IPv6 address keeps its brackets. */
  readonly host: string;
  readonly port: number | undefined;
}

/**
 * A reg-name (RFC 3986 unreserved, sub-delims and percent signs) or a bracketed IPv6 address,
 * then an optional `:port`. Anything else (spaces, `/`, `@`, a second colon) is not a host.
 */
const HOST_PATTERN = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~%!$&'()*+,;=]+)(?::(\d{1,5}))?$/;

/** Parses a `Host` header value; `null` when it is not a valid host. */
export function parseHostHeader(value: string): HostAndPort | null {
  const match = HOST_PATTERN.exec(value);
  if (match === null) return null;
  const port = match[2] === undefined ? undefined : Number(match[2]);
  if (port !== undefined && port > 65535) return null;
  return { host: match[1]!.toLowerCase(), port };
}
