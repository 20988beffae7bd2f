import type { Request } from '@switchboard/http-kernel';
import { parseCookie } from 'cookie';

/**
 * The cookies a request sent, by name (the first of a repeated name wins, as browsers send the
 * most specific first). Every `Cookie` header line counts: HTTP/2 clients may split the header.
 * The one place that reads cookies, so that a kernel-level reader can replace it.
 */
export function requestCookies(request: Request): Readonly<Record<string, string | undefined>> {
  const lines = request.headers.getAll('cookie');
  return lines.length === 0 ? {} : parseCookie(lines.join('; '));
}
