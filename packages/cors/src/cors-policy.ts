import { compileOriginRules, LOOPBACK_ORIGIN, type OriginMatcher, type OriginRule } from './origin-rule.js';

/** What cross-origin callers may do on a part of the site. */
export interface CorsOptions {
  /** Allowed origins; default: the service's loopback rule (`LOOPBACK_ORIGIN`). `[]` disables CORS. */
  allowOrigins?: readonly OriginRule[];
  /** Methods a preflight may ask for; default GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS. */
  allowMethods?: readonly string[];
  /** Request headers a preflight may ask for, or `*` for any; default `content-type`, `authorization`. */
  allowHeaders?: readonly string[] | '*';
  /** Response headers the page may read besides the CORS-safelisted ones; default none. */
  exposeHeaders?: readonly string[];
  /** Send `Access-Control-Allow-Credentials: true` (cookies, HTTP auth); default false. */
  allowCredentials?: boolean;
  /** Seconds a browser may cache a preflight answer; 0 (default) sends no `Access-Control-Max-Age`. */
  maxAgeSeconds?: number;
  /** A request whose Origin is the request's own `scheme://host[:port]` is not treated as CORS; default true. */
  skipSameOrigin?: boolean;
}

/** Options for a path prefix: `/api` covers `/api` and `/api/…`, never `/apis`. */
export interface CorsPathOptions extends CorsOptions {
  prefix: string;
}

/** The whole configuration: defaults, and overrides per path prefix (longest prefix wins). */
export interface CorsConfig extends CorsOptions {
  paths?: readonly CorsPathOptions[];
}

/** A resolved, ready-to-use policy. */
export interface CorsPolicy {
  readonly isOriginAllowed: OriginMatcher;
  readonly enabled: boolean;
  /** Upper-cased. */
  readonly allowMethods: readonly string[];
  /** `allowMethods` joined, for the `Allow` and `Access-Control-Allow-Methods` answers. */
  readonly allowMethodsValue: string;
  /** Lower-cased, or `*`. */
  readonly allowHeaders: ReadonlySet<string> | '*';
  /** As configured, joined, for the `Access-Control-Allow-Headers` answer; `''` with `*` or none. */
  readonly allowHeadersValue: string;
  /** Lower-cased and joined, for `Access-Control-Expose-Headers`; `''` for none. */
  readonly exposeHeadersValue: string;
  readonly allowCredentials: boolean;
  readonly maxAgeSeconds: number;
  readonly skipSameOrigin: boolean;
}

const DEFAULT_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const DEFAULT_HEADERS = ['content-type', 'authorization'];
/** Checked by code, so the per-request prefix test builds no `${prefix}/` string. */
const SLASH = 0x2f;

/** Picks the policy for a request path: the longest configured prefix that covers it, else the defaults. */
export class CorsPolicyMap {
  readonly #defaults: CorsPolicy;
  readonly #byPrefix: ReadonlyArray<{ prefix: string; policy: CorsPolicy }>;

  constructor(config: CorsConfig = {}) {
    const { paths = [], ...defaults } = config;
    this.#defaults = resolvePolicy(defaults);
    this.#byPrefix = paths
      .map(({ prefix, ...options }) => ({ prefix: normalisePrefix(prefix), policy: resolvePolicy({ ...defaults, ...options }) }))
      .sort((a, b) => b.prefix.length - a.prefix.length);
  }

  /** `path` is the raw (still percent-encoded) path, so matching never throws on bad encoding. */
  policyFor(path: string): CorsPolicy {
    for (const { prefix, policy } of this.#byPrefix) {
      if (prefix === '/' || (path.startsWith(prefix) && (path.length === prefix.length || path.charCodeAt(prefix.length) === SLASH))) {
        return policy;
      }
    }
    return this.#defaults;
  }
}

function normalisePrefix(prefix: string): string {
  if (!prefix.startsWith('/')) throw new TypeError(`A CORS path prefix must start with "/", got "${prefix}".`);
  return prefix.length > 1 && prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
}

function resolvePolicy(options: CorsOptions): CorsPolicy {
  const origins = options.allowOrigins ?? [LOOPBACK_ORIGIN];
  const allowCredentials = options.allowCredentials ?? false;
  if (allowCredentials && origins.includes('*')) {
    // Any origin with credentials would let every site act as the user; refuse the configuration.
    throw new TypeError('CORS: allowOrigins "*" cannot be combined with allowCredentials.');
  }
  const maxAgeSeconds = options.maxAgeSeconds ?? 0;
  if (!Number.isInteger(maxAgeSeconds) || maxAgeSeconds < 0)
    throw new TypeError(`CORS: maxAgeSeconds must be a whole number of seconds, got ${maxAgeSeconds}.`);
  const headers = options.allowHeaders ?? DEFAULT_HEADERS;
  const allowMethods = [...new Set((options.allowMethods ?? DEFAULT_METHODS).map((method) => method.toUpperCase()))];
  // Header values are joined here, once, rather than on every request that gets them.
  return {
    isOriginAllowed: compileOriginRules(origins),
    enabled: origins.length > 0,
    allowMethods,
    allowMethodsValue: allowMethods.join(', '),
    allowHeaders: headers === '*' ? '*' : new Set(headers.map((name) => name.toLowerCase())),
    allowHeadersValue: headers === '*' ? '' : headers.join(', '),
    exposeHeadersValue: (options.exposeHeaders ?? []).map((name) => name.toLowerCase()).join(', '),
    allowCredentials,
    maxAgeSeconds,
    skipSameOrigin: options.skipSameOrigin ?? true,
  };
}
