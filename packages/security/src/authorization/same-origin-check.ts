import type { Request } from '@switchboard/http-kernel';

export interface SameOriginOptions {
  /**
   * Other origins allowed to send unsafe requests: a list (`https://app.example.com`), compared
   * case-insensitively, or a predicate (e.g. the CORS step's origin matcher, so that the pages CORS
   * lets in pass this check too).
   */
  trustedOrigins?: readonly string[] | ((origin: string) => boolean);
  /**
   * Let through a request with neither `Sec-Fetch-Site` nor `Origin`. Browsers send `Origin` on every
   * cross-origin unsafe request, so such a request comes from a program (curl, a server) that no web
   * page drives: for routes programs call, such as a login. Default false (refused).
   */
  allowNonBrowserClients?: boolean;
  /**
   * A custom header (e.g. `x-csrf-protection`) whose presence proves the request came from script
   * allowed by CORS: a browser cannot add it cross-origin without a preflight. Off by default.
   */
  header?: string;
}

/** Methods that change nothing, so a forged one does no harm (RFC 9110 §9.2.1). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

/**
 * Request-forgery check for a stateless API: an unsafe request must show it comes from this
 * origin (`Sec-Fetch-Site`, then `Origin`), from a trusted origin, or carry the custom header.
 * Returns why it is refused, or `null` when it passes. No token, no cookie, nothing stored.
 */
export function sameOriginRefusal(request: Request, options: SameOriginOptions = {}): string | null {
  if (SAFE_METHODS.has(request.method)) return null;
  if (options.header !== undefined && (request.headers.get(options.header) ?? '') !== '') return null;

  const origin = request.headers.get('origin');
  const isTrusted = origin !== undefined && isTrustedOrigin(origin, options.trustedOrigins);
  const fetchSite = request.headers.get('sec-fetch-site')?.toLowerCase();

  if (fetchSite !== undefined) {
    // `none`: the user started it (address bar, bookmark); no other site was involved.
    if (fetchSite === 'same-origin' || fetchSite === 'none' || isTrusted) return null;
    return (
      `Cross-site request refused: Sec-Fetch-Site is "${shown(fetchSite)}"` +
      (origin === undefined ? '.' : ` and the origin "${shown(origin)}" is not trusted.`)
    );
  }
  if (origin !== undefined) {
    if (origin.toLowerCase() === request.schemeAndHttpHost.toLowerCase() || isTrusted) return null;
    return `Cross-site request refused: the origin "${shown(origin)}" is not this site's origin "${request.schemeAndHttpHost}".`;
  }
  if (options.allowNonBrowserClients === true) return null;
  const alternative = options.header === undefined ? '' : ` or ${options.header}`;
  return `Cross-site request refused: an unsafe request needs an Origin or Sec-Fetch-Site header${alternative} to show where it comes from.`;
}

function isTrustedOrigin(origin: string, trustedOrigins: SameOriginOptions['trustedOrigins']): boolean {
  if (trustedOrigins === undefined) return false;
  if (typeof trustedOrigins === 'function') return trustedOrigins(origin);
  const lower = origin.toLowerCase();
  for (const trusted of trustedOrigins) if (trusted.toLowerCase() === lower) return true;
  return false;
}

/** Attacker-chosen text in a message: bounded. */
function shown(value: string): string {
  return value.length > 100 ? `${value.slice(0, 100)}…` : value;
}
