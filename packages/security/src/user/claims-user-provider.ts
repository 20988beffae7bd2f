import type { SecurityUser } from './security-user.js';
import type { TokenClaims, UserProvider } from './user-provider.js';

/**
 * The stateless default: the user is what the signed token says, roles from its `roles` claim
 * (an array of strings; anything else counts as no roles). No lookup, so a revoked user stays
 * valid until the token expires — keep lifetimes short, or supply a provider that looks users up.
 */
export class ClaimsUserProvider implements UserProvider {
  constructor(private readonly rolesClaim = 'roles') {}

  loadUser(identifier: string, claims: TokenClaims): SecurityUser {
    const roles = claims[this.rolesClaim];
    return {
      identifier,
      roles: Array.isArray(roles) ? roles.filter((role): role is string => typeof role === 'string') : [],
    };
  }
}
