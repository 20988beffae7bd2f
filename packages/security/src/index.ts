/**
 * @switchboard/security — the stateless JWT firewall (`kernel.request` 8), the request-forgery
 * check (`kernel.controller_arguments` 25), authorization (`kernel.controller_arguments` 20) and
 * the stateless check (`kernel.response` −1000). Keys are read with node:crypto and used by jose.
 * @module
 */
import './security-attributes.js';

export { loadJwtKeys, type JwtKeyOptions, type JwtKeys } from './key/load-jwt-keys.js';
export { KeyLoadError } from './key/key-load-error.js';
export { SUPPORTED_ALGORITHMS, type JwsAlgorithm } from './key/jws-algorithms.js';

export type { Authenticator, AuthenticationOutcome } from './authenticator/authenticator.js';
export { extractBearerToken } from './authenticator/bearer-token-extractor.js';
export { JwtAuthenticator, type JwtAuthenticatorOptions } from './authenticator/jwt-authenticator.js';
export { JWT_FAILURE_MESSAGES, jwtFailureResponse, type JwtFailure, type JwtFailureFormat } from './authenticator/jwt-failure-response.js';
export { JwtTokenIssuer, type JwtTokenIssuerOptions } from './token/jwt-token-issuer.js';
export { jwkThumbprint } from './key/jwk-thumbprint.js';
export { OidcAuthenticator, type OidcAuthenticatorOptions, type OidcIssuerOptions } from './authenticator/oidc-authenticator.js';
export {
  INTROSPECTION_UNAVAILABLE_MESSAGE,
  IntrospectionAuthenticator,
  type IntrospectionAuthenticatorOptions,
} from './authenticator/introspection-authenticator.js';
export {
  API_KEY_MESSAGES,
  ApiKeyAuthenticator,
  type ApiKeyAuthenticatorOptions,
  type ApiKeyStore,
  type StoredApiKey,
} from './authenticator/api-key-authenticator.js';
export { keySetUnavailableResponse } from './authenticator/key-set-unavailable-response.js';
export { OidcIssuer, type OidcIssuerKeys } from './oidc/oidc-issuer.js';
export { KeySetUnavailableError, RemoteKeySet, type KeySetState, type RemoteKeySetOptions } from './oidc/remote-key-set.js';
export { scopeRoles } from './oidc/scope-roles.js';

export { credentialsExpireAt, currentUser, type SecurityUser } from './user/security-user.js';
export type { TokenClaims, UserProvider } from './user/user-provider.js';
export { ClaimsUserProvider } from './user/claims-user-provider.js';
export { scryptPasswordHasher, type ScryptCost } from './password/scrypt-password-hasher.js';
export {
  ClientClosedRequestError,
  PasswordHashingQueue,
  threadPoolSize,
  type PasswordHashingQueueOptions,
  type PasswordHashingReservation,
  type PasswordHashingStats,
} from './password/password-hashing-queue.js';
export {
  DEFAULT_CHILD_ENVIRONMENT,
  PasswordHasherProcess,
  type PasswordHasherProcessOptions,
  type PasswordHasherStats,
} from './password/password-hasher-process.js';

export {
  LOGIN_THROTTLED_CHANNEL,
  LoginThrottle,
  normaliseUsername,
  type LoginThrottledMessage,
  type LoginThrottleOptions,
} from './throttling/login-throttle.js';

export { FirewallMap, type Firewall, type FirewallConfig } from './firewall/firewall-map.js';
export { FirewallListener, type FirewallListenerOptions } from './firewall/firewall-listener.js';

export {
  describeRule,
  IS_AUTHENTICATED,
  isGranted,
  PUBLIC_ACCESS,
  type IsGrantedRule,
  type Voter,
  type VoterContext,
} from './authorization/is-granted-rule.js';
export { IsGrantedListener, type IsGrantedListenerOptions } from './authorization/is-granted-listener.js';
export { sameOriginRefusal, type SameOriginOptions } from './authorization/same-origin-check.js';
export { SameOriginListener } from './authorization/same-origin-listener.js';

export { isStateless, SessionGuard, type SessionGuardOptions } from './session/session-guard.js';
export { StatelessCheckListener, type StatelessCheckListenerOptions } from './session/stateless-check-listener.js';
export { UnexpectedSessionUsageError } from './session/unexpected-session-usage-error.js';
