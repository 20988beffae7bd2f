/**
 * The stand-in OpenID Connect provider of `@switchboard/testing`, for the tests of packages that
 * cannot depend on that package (security: testing depends on it).
 */
export {
  TEST_INTROSPECTION_CLIENT,
  TestIdentityProvider,
  type IdentityProviderRequests,
  type TestIdentityProviderOptions,
  type TestTokenSubject,
} from '../../packages/testing/src/identity-provider/test-identity-provider.js';
