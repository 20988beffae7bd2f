import type { Request } from '@switchboard/http-kernel';

/**
 * The authenticated user as the rest of the request sees it: who, and with which roles. Plain
 * data (what the profiler's security panel shows). Never holds the token.
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

/**
 * When the credentials the current user was authenticated with expire (a token's `exp`), or `null`
 * when nobody is authenticated or the credentials do not say: what an event stream ends at.
 */
export function credentialsExpireAt(request: Request): Date | null {
  const own = request.attributes.get('_credentials_expire_at');
  if (own !== undefined) return own;
  return request.requestStack?.getMainRequest()?.attributes.get('_credentials_expire_at') ?? null;
}
