import type { IsGrantedRule } from './authorization/is-granted-rule.js';
import type { SameOriginOptions } from './authorization/same-origin-check.js';
import type { KeySetState } from './oidc/remote-key-set.js';
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
    /**
     * The token an OIDC authenticator looked at: which issuer and `kid`, and that issuer's key
     * set as it was (for the profiler's security panel). Never the token. Absent for other authenticators.
     */
    _security_token?: {
      readonly authenticator: string;
      readonly issuer: string;
      readonly kid: string | null;
      readonly keySet: KeySetState | null;
    };
    /** Route default: roles (any of them grants), `PUBLIC_ACCESS`, or a voter function. */
    _is_granted?: IsGrantedRule;
    /** Route default: refuse cross-site unsafe requests (see SameOriginListener). */
    _same_origin?: boolean | SameOriginOptions;
    /** Where session state was touched during this request (see SessionGuard); absent when never. */
    _session_usages?: string[];
  }
}
