/** A cookie as the jar keeps it. */
export interface StoredCookie {
  readonly name: string;
  readonly value: string;
  /** Lower-cased, without a leading dot. */
  readonly domain: string;
  /** Sent only to `domain` itself (no `Domain` attribute), not its subdomains. */
  readonly hostOnly: boolean;
  readonly path: string;
  /** Epoch ms; `null` for a session cookie. */
  readonly expires: number | null;
  readonly secure: boolean;
  readonly httpOnly: boolean;
  readonly sameSite: string | null;
  /** Epoch ms, for the order of equally long paths. */
  readonly created: number;
}

/**
 * Reads one `Set-Cookie` field received from `url` (RFC 6265 §5.2 and §5.3, and RFC 6265bis's
 * prefixes). `null` when the cookie must be ignored: no `=` in the pair, an empty name, a `Domain`
 * the host is not within, a `Secure` cookie set over plain http from a host that is not loopback
 * (browsers count `localhost` and loopback addresses as secure), a `__Secure-` cookie without
 * `Secure`, or a `__Host-` cookie without `Secure`, with a `Domain`, or with a `Path` other than `/`.
 */
export function parseSetCookie(field: string, url: URL, now: number): StoredCookie | null {
  const [pair = '', ...attributes] = field.split(';');
  const equals = pair.indexOf('=');
  if (equals === -1) return null;
  const name = pair.slice(0, equals).trim();
  if (name === '') return null;
  const value = pair.slice(equals + 1).trim();

  const host = url.hostname.toLowerCase();
  let domain: string | null = null;
  let path: string | null = null;
  let maxAge: number | null = null;
  let expires: number | null = null;
  let secure = false;
  let httpOnly = false;
  let sameSite: string | null = null;
  for (const attribute of attributes) {
    const separator = attribute.indexOf('=');
    const key = (separator === -1 ? attribute : attribute.slice(0, separator)).trim().toLowerCase();
    const argument = separator === -1 ? '' : attribute.slice(separator + 1).trim();
    switch (key) {
      case 'domain':
        if (argument !== '') domain = argument.replace(/^\./, '').toLowerCase();
        break;
      case 'path':
        path = argument.startsWith('/') ? argument : null;
        break;
      case 'max-age':
        if (/^-?\d+$/.test(argument)) maxAge = Number(argument);
        break;
      case 'expires': {
        const time = Date.parse(argument);
        if (!Number.isNaN(time)) expires = time;
        break;
      }
      case 'secure':
        secure = true;
        break;
      case 'httponly':
        httpOnly = true;
        break;
      case 'samesite':
        sameSite = argument;
        break;
    }
  }
  if (domain !== null && !domainMatches(host, domain)) return null;
  if (secure && !isSecureOrigin(url)) return null;
  const lowerName = name.toLowerCase();
  if ((lowerName.startsWith('__secure-') || lowerName.startsWith('__host-')) && !secure) return null;
  if (lowerName.startsWith('__host-') && (domain !== null || path !== '/')) return null;
  return {
    name,
    value,
    domain: domain ?? host,
    hostOnly: domain === null,
    path: path ?? defaultPath(url.pathname),
    // Max-Age wins over Expires (§5.3 step 3); zero or less means "already expired".
    expires: maxAge !== null ? (maxAge <= 0 ? 0 : now + maxAge * 1000) : expires,
    secure,
    httpOnly,
    sameSite,
    created: now,
  };
}

/** §5.1.4: the request path up to, not including, its last `/` (`/` when that leaves nothing). */
function defaultPath(requestPath: string): string {
  const last = requestPath.lastIndexOf('/');
  return last <= 0 ? '/' : requestPath.slice(0, last);
}

/** §5.1.3: the host is the domain or ends with `.domain`, and is not an IP address. */
export function domainMatches(host: string, domain: string): boolean {
  if (host === domain) return true;
  return host.endsWith(`.${domain}`) && !/^[\d.]+$|^\[|:/.test(host);
}

/** https, or a loopback host over http: what browsers treat as a secure context for cookies. */
export function isSecureOrigin(url: URL): boolean {
  if (url.protocol === 'https:') return true;
  const host = url.hostname.toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(host) || host === '[::1]';
}
