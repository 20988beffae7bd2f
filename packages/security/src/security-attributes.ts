import type { IsGrantedRule } from './authorization/is-granted-rule.js';
import type { SameOriginOptions } from './authorization/same-origin-check.js';
import type { SecurityUser } from './user/security-user.js';

/**
 * The request attributes this package reads and writes; only this package reads them (its
 * profiler panel, `./profiler`, included).
 */
declare module '@switchboard/http-kernel' {
  interface RequestAttributes {
    /** Name of the firewall that handled the request (set by the firewall, main request). */
    _firewall?: string;
    /** The authenticated user; absent when none. */
    _security_user?: SecurityUser;
    /** When the credentials that authenticated the user expire; absent when they do not say. */
    _credentials_expire_at?: Date;
    /** Route default: roles (any of them grants), `PUBLIC_ACCESS`, or a voter function. */
    _is_granted?: IsGrantedRule;
    /** Route default: refuse cross-site unsafe requests (see SameOriginListener). */
    _same_origin?: boolean | SameOriginOptions;
    /** Where session state was touched during this request (see SessionGuard); absent when never. */
    _session_usages?: string[];
  }
}
