import type { Request, Response } from '@switchboard/http-kernel';
import type { SecurityUser } from '../user/security-user.js';

/** What an authenticator made of a request. */
export type AuthenticationOutcome =
  /**
   * Credentials were present and good; `expiresAt` when they stop being good (a token's `exp`),
   * for whatever outlives the request (an event stream) to end then.
   */
  | { readonly kind: 'authenticated'; readonly user: SecurityUser; readonly expiresAt?: Date }
  /** The request carries no credentials of this kind: the next authenticator is asked. */
  | { readonly kind: 'absent' }
  /**
   * Credentials were present and bad: the request is answered with `response` at once.
   * `reason` is a fixed phrase for the log line, never anything taken from the credentials.
   */
  | { readonly kind: 'failed'; readonly reason: string; readonly response: Response };

/** One way of proving who the client is (a bearer JWT, an API key…). */
export interface Authenticator {
  readonly name: string;
  authenticate(request: Request): Promise<AuthenticationOutcome>;
  /** The answer when the route needs a user and no authenticator found credentials (the entry point). */
  start(request: Request): Response;
}
