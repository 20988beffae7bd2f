import type { Request } from '@switchboard/http-kernel';

/**
 * The authenticated user as the rest of the request sees it: who, and with which roles. Plain
 * data, so the profiler can show it without importing this package. Never holds the token.
 */
export interface SecurityUser {
  readonly identifier: string;
  readonly roles: readonly string[];
}

/** The user authenticated for this request chain (sub-requests see the main request's user). */
export function currentUser(request: Request): SecurityUser | null {
  const own = request.attributes.get('_security_user');
  if (own !== undefined) return own;
  return request.requestStack?.getMainRequest()?.attributes.get('_security_user') ?? null;
}
