/**
 * @switchboard/testing — a test client for Switchboard kernels: requests built by the node
 * adapter's own rules and handled in process (or over a real socket with `client.socket()`), a
 * cookie jar, redirect following, logins, and the profile of each request.
 * @module
 */
export { createTestClient, TestClient, type TestClientOptions, type TokenIssuer } from './test-client.js';
export type { HeaderFields, QueryValue, TestRequestInit } from './request/request-init.js';
export { MAX_REDIRECTS, TooManyRedirectsError, type RedirectStep } from './request/redirect-rules.js';
export { TestResponse } from './response/test-response.js';
export type { ProfileReader, ResponseProfile } from './response/response-profile.js';
export { CookieJar, type CookieAttributes } from './cookies/cookie-jar.js';
export type { StoredCookie } from './cookies/set-cookie.js';
export {
  TEST_INTROSPECTION_CLIENT,
  TestIdentityProvider,
  type IdentityProviderRequests,
  type TestIdentityProviderOptions,
  type TestTokenSubject,
} from './identity-provider/test-identity-provider.js';
