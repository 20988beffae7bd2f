import type { Request } from '@switchboard/http-kernel';

/**
 * Reads the token from `Authorization: Bearer <token>` and nowhere else (no cookie, no query
 * string: both end up in logs and caches). The header must be exactly two parts split on one
 * space, the scheme matched case-insensitively; anything else is "no token".
 */
export function extractBearerToken(request: Request, scheme = 'Bearer'): string | null {
  const headers = request.headers.getAll('authorization');
  if (headers.length !== 1) return null;
  const parts = headers[0]!.split(' ');
  if (parts.length !== 2 || parts[0]!.toLowerCase() !== scheme.toLowerCase() || parts[1] === '') return null;
  return parts[1]!;
}
