import type { Request } from '@switchboard/http-kernel';

export interface RequestContextInit {
  /** Path prefix the app is served under (`/app`); prepended to generated paths. */
  baseUrl?: string;
  method?: string;
  host?: string;
  scheme?: string;
  httpPort?: number;
  httpsPort?: number;
  /** Raw (percent-encoded) path after the base URL. */
  pathInfo?: string;
  queryString?: string;
}

/**
 * What matching and URL generation know of a request: method, scheme, host, ports, base URL.
 * Immutable: each request gets its own (`fromRequest`), so concurrent requests never share one.
 */
export class RequestContext {
  readonly baseUrl: string;
  readonly method: string;
  readonly host: string;
  readonly scheme: string;
  readonly httpPort: number;
  readonly httpsPort: number;
  readonly pathInfo: string;
  readonly queryString: string;

  constructor(init: RequestContextInit = {}) {
    this.baseUrl = (init.baseUrl ?? '').replace(/\/+$/, '');
    this.method = (init.method ?? 'GET').toUpperCase();
    this.host = (init.host ?? 'localhost').toLowerCase();
    this.scheme = (init.scheme ?? 'http').toLowerCase();
    this.httpPort = init.httpPort ?? 80;
    this.httpsPort = init.httpsPort ?? 443;
    this.pathInfo = init.pathInfo ?? '/';
    this.queryString = init.queryString ?? '';
  }

  /** The context of a request; `baseUrl` is the configured prefix the app is served under. */
  static fromRequest(request: Request, baseUrl = ''): RequestContext {
    return new RequestContext({
      baseUrl,
      method: request.method,
      host: request.host,
      scheme: request.scheme,
      httpPort: request.scheme === 'http' ? request.port : 80,
      httpsPort: request.scheme === 'https' ? request.port : 443,
      pathInfo: request.rawPath,
      queryString: request.queryString,
    });
  }

  /** A fixed public address, e.g. `https://v2.api.example.com:8443/base` (for links built outside a request). */
  static fromUrl(url: string | URL): RequestContext {
    const parsed = typeof url === 'string' ? new URL(url) : url;
    const scheme = parsed.protocol.replace(/:$/, '');
    const port = parsed.port === '' ? undefined : Number(parsed.port);
    return new RequestContext({
      baseUrl: parsed.pathname,
      host: parsed.hostname,
      scheme,
      ...(port === undefined ? {} : scheme === 'https' ? { httpsPort: port } : { httpPort: port }),
    });
  }

  with(changes: RequestContextInit): RequestContext {
    return new RequestContext({ ...this, ...changes });
  }

  /** `scheme://host[:port]` with the port only when it is not the scheme's default. */
  schemeAndHost(scheme = this.scheme): string {
    const port = scheme === 'https' ? this.httpsPort : scheme === 'http' ? this.httpPort : 0;
    const isDefault = (scheme === 'https' && port === 443) || (scheme === 'http' && port === 80) || port === 0;
    return `${scheme}://${this.host}${isDefault ? '' : `:${port}`}`;
  }
}
