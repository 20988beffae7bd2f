/** The scheme, host and port requests are answered under when configured (`baseUrl`), not read from the client. */
export interface PublicOrigin {
  readonly scheme: 'http' | 'https';
  /** Lower-cased; IPv6 in brackets. */
  readonly host: string;
  readonly port: number;
}

/** Reads `https://v2.api.example.com[:port]`; a path, query or credentials are configuration mistakes. */
export function parsePublicOrigin(baseUrl: string): PublicOrigin {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(`baseUrl "${baseUrl}" is not an absolute URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`baseUrl "${baseUrl}" must be http or https.`);
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '' || (url.pathname !== '/' && url.pathname !== '')) {
    throw new TypeError(`baseUrl "${baseUrl}" must be an origin only (scheme, host, optional port), without path, query or credentials.`);
  }
  const scheme = url.protocol === 'https:' ? 'https' : 'http';
  return { scheme, host: url.hostname.toLowerCase(), port: url.port === '' ? (scheme === 'https' ? 443 : 80) : Number(url.port) };
}
