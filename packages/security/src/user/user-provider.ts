import type { SecurityUser } from './security-user.js';

/** Verified token claims, as handed to a user provider. */
export type TokenClaims = Readonly<Record<string, unknown>>;

/**
 * Turns the identifier a verified token names into a user. `null` means "no such user" (the
 * token is then refused as invalid); a throw is a server fault and is not turned into a 401.
 */
export interface UserProvider {
  loadUser(identifier: string, claims: TokenClaims): SecurityUser | null | Promise<SecurityUser | null>;
}
