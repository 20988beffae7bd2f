/**
 * A request path percent-decoded once: `+` stays `+`, `%2F` becomes `/`, an empty path is `/`.
 * Malformed percent-encoding, or bytes that are not UTF-8, throw `decodeURIComponent`'s
 * `URIError`; each caller turns it into its own error (`Request.path` a 400, the router a
 * `MalformedPathError`).
 */
export function decodePath(raw: string): string {
  if (raw === '') return '/';
  if (!raw.includes('%')) return raw;
  return decodeURIComponent(raw) || '/';
}
